import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The page's files: `public/` next to `src/` and `dist/`, shipped in the package. */
export const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url));

export interface WebAsset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let assets: Map<string, WebAsset> | undefined;

/**
 * Every servable file, read once: `index.html` and the files of `public/assets/` by name. A request
 * names a key of this map or gets nothing, so no path from a request ever reaches the file system.
 */
const load = (): Map<string, WebAsset> => {
  const found = new Map<string, WebAsset>();
  const add = (key: string, file: string) => {
    const type = TYPES[extname(file)];
    if (type) found.set(key, { type, body: readFileSync(file) });
  };
  add('index.html', join(PUBLIC_DIR, 'index.html'));
  for (const name of readdirSync(join(PUBLIC_DIR, 'assets'))) add(`assets/${name}`, join(PUBLIC_DIR, 'assets', name));
  return found;
};

/** The asset under a key (`index.html`, `assets/app.js`), or undefined. */
export const webAsset = (key: string): WebAsset | undefined => (assets ??= load()).get(key);
