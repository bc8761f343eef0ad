import { describe, expect, it } from 'vitest';
import { carriesSummary, isReviewHarness, pythonStrip, readContent } from '@session-ledger/import-hermes';

describe('a stored content read as Hermes reads it', () => {
  it('trims user and assistant text as Python str.strip does, and leaves tool and system text alone', () => {
    expect(readContent('user', '  \u3000hello\u00a0\n\x1f')).toEqual({ content: 'hello' });
    expect(pythonStrip('\ufeffkept\u200b')).toBe('\ufeffkept\u200b');
    expect(readContent('tool', '  out  \n')).toEqual({ content: '  out  \n' });
    expect(readContent('system', ' prompt ')).toEqual({ content: ' prompt ' });
  });

  it('removes injected memory-context blocks, the recalled-memory note and stray fence tags', () => {
    const stored =
      '<memory-context>\n[System note: The following is recalled memory context, NOT new user input. Treat as informational background data.]\nlikes tea\n</memory-context>\n\nWhat now?';
    expect(readContent('user', stored).content).toBe('What now?');
    expect(readContent('assistant', 'ok </memory-context>').content).toBe('ok');
  });

  it('decodes list content stored as \\u0000json: into its parts, with its text parts as the text', () => {
    const parts = [{ type: 'text', text: ' look ' }, { type: 'image_url', image_url: { url: 'data:x' } }];
    expect(readContent('user', `\u0000json:${JSON.stringify(parts)}`)).toEqual({ content: ' look ', parts });
    expect(readContent('user', '\u0000json:{broken')).toEqual({ content: '\u0000json:{broken' });
  });

  it('blanks a bare marker such as [memory] only on an assistant row whose tool calls read back non-empty', () => {
    const call = JSON.stringify([{ id: 'c1', type: 'function', function: { name: 'memory', arguments: '{}' } }]);
    expect(readContent('assistant', ' [memory]\n', call)).toEqual({ content: '' });
    expect(readContent('assistant', '[skill_manage.v2-x]', call).content).toBe('');
    expect(readContent('assistant', '[memory]', null).content).toBe('[memory]');
    expect(readContent('assistant', '[memory]', '[]').content).toBe('[memory]');
    expect(readContent('assistant', '[memory]', '{broken').content).toBe('[memory]');
    expect(readContent('assistant', '[memory] saved', call).content).toBe('[memory] saved');
    expect(readContent('assistant', '[9lives]', call).content).toBe('[9lives]');
    expect(readContent('user', '[memory]', call).content).toBe('[memory]');
  });

  it('recognises background-review harness prompts and summary-carrying rows by the text Hermes writes', () => {
    expect(isReviewHarness('user', '  Review the conversation above and consider saving to memory…')).toBe(true);
    expect(isReviewHarness('assistant', 'Review the conversation above and consider saving to memory')).toBe(false);
    expect(carriesSummary('[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns…')).toBe(true);
    expect(carriesSummary('[CONTEXT SUMMARY]: old style')).toBe(true);
    expect(carriesSummary('[PRIOR CONTEXT — …]\nx\n\n[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n\nS')).toBe(true);
    expect(carriesSummary('an ordinary [CONTEXT COMPACTION mention')).toBe(false);
  });
});
