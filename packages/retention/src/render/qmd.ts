import type { Manifest } from '../manifest.js';
import type { ExportContent } from '../view/content.js';
import { fenced, renderMarkdown } from './markdown.js';
import { escapeShortcodes } from './markdownText.js';

/** Quarto: the same transcript as Markdown, markers as callouts, shortcodes in stored text escaped. */
export const renderQmd = (content: ExportContent, manifest: Manifest): string =>
  renderMarkdown(content, manifest, {
    marker: (headline, summary) => [':::: {.callout-note}', headline, ...(summary === null ? [] : ['', fenced(summary)]), '::::'].join('\n'),
    body: escapeShortcodes,
  });
