import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests import every workspace package from its TypeScript source, so no build is needed to test a change.
const alias: Record<string, string> = {};
for (const dir of readdirSync('packages')) {
  const entry = resolve('packages', dir, 'src/index.ts');
  if (existsSync(entry)) alias[`@session-ledger/${dir}`] = entry;
}
alias['@session-ledger/projections'] = resolve('projections/src/index.ts');

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
