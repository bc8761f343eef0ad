import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's script, `src/<folder>/<name>.ts` built: beside the module asking (`here`, its
 * import.meta.url) when that is built; from the TypeScript sources (tests), the built one. Null when
 * the package was not built.
 */
export const builtWorker = (here: string, folder: string, name: string): URL | null => {
  for (const candidate of [new URL(`./${name}.js`, here), new URL(`../../dist/${folder}/${name}.js`, here)]) {
    if (existsSync(fileURLToPath(candidate))) return candidate;
  }
  return null;
};
