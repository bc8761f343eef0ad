import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(__dirname, '../..');

export interface Workspace {
  dir: string;
  manifest: {
    name: string;
    version: string;
    license?: string;
    main?: string;
    types?: string;
    bin?: Record<string, string>;
    files?: string[];
    engines?: Record<string, string>;
    exports?: Record<string, { types?: string; default?: string }>;
    dependencies?: Record<string, string>;
  };
  /** The file name `npm pack` gives its tarball. */
  tarball: string;
}

/** Every published package of the monorepo: packages/* and projections/. */
export const workspaces = (): Workspace[] =>
  [...readdirSync(join(REPO, 'packages')).map((name) => `packages/${name}`), 'projections'].map((dir) => {
    const manifest = JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')) as Workspace['manifest'];
    return { dir, manifest, tarball: `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz` };
  });

/**
 * A project that depends on every tarball, with a lockfile so that `npm ci --offline` installs it
 * from the npm cache alone: our packages from the tarballs, every external package at the version
 * (and integrity) the monorepo's lockfile pins, which the monorepo's `npm ci` put in the cache.
 */
export const writeScratchProject = (app: string, tarballs: string): void => {
  const repoLock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; resolved?: string; dev?: boolean; link?: boolean }>;
  };
  const dependencies: Record<string, string> = {};
  const packages: Record<string, unknown> = {};
  for (const { manifest, tarball } of workspaces()) {
    const spec = `file:${join(tarballs, tarball)}`;
    dependencies[manifest.name] = spec;
    packages[`node_modules/${manifest.name}`] = {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(join(tarballs, tarball))).digest('base64')}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      engines: manifest.engines,
      ...(manifest.bin ? { bin: manifest.bin } : {}),
    };
  }
  for (const [key, entry] of Object.entries(repoLock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev || entry.link || key.startsWith('node_modules/@session-ledger/')) continue;
    // The monorepo's lockfile leaves registry URLs out; npm finds a cached tarball by URL and integrity.
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[key] = { ...entry, resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
  }
  const manifest = { name: 'scratch-app', version: '1.0.0', private: true, type: 'module', dependencies };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  const lock = { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: { '': { name: manifest.name, version: manifest.version, dependencies }, ...packages } };
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock, null, 2));
};
