import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { areas } from './bench/index.js';
import type { BenchRow } from './bench/types.js';
import { mergeResults, type StoredRow } from './bench/results.js';

/**
 * npm run bench [-- --only <area>[,<area>]]: runs the areas listed in bench/index.ts, prints a
 * table and writes bench-results.json at the repository root. With --only, the rows of the other
 * areas already in bench-results.json are kept (results.ts). Each area runs in a process of its own.
 */
const RESULTS = fileURLToPath(new URL('../../bench-results.json', import.meta.url));

const usage = (message: string): never => {
  process.stderr.write(`bench: ${message}\nusage: npm run bench [-- --only <area>[,<area>]]  (areas: ${Object.keys(areas).join(', ')})\n`);
  process.exit(2);
};

const selected = (args: string[]): string[] => {
  if (args.length === 0) return Object.keys(areas);
  if (args[0] !== '--only' || args.length !== 2) return usage(`unexpected arguments: ${args.join(' ')}`);
  const names = args[1]!.split(',').filter(Boolean);
  for (const name of names) if (!(name in areas)) usage(`unknown area: ${name}`);
  return names;
};

const format = (value: number) => value.toLocaleString('en-US');

const printTable = (rows: BenchRow[]) => {
  const lines = rows.map((row) => [
    row.name,
    `${format(row.value)} ${row.unit}`,
    row.baseline ? `${format(row.baseline.value)} ${row.unit}` : '',
    row.ratio === null ? '' : row.ratio.toFixed(2),
    row.baseline?.name ?? '',
  ]);
  const header = ['benchmark', 'value', 'baseline', 'ratio', 'baseline is'];
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  for (const line of [header, widths.map((width) => '-'.repeat(width)), ...lines]) {
    process.stdout.write(`${line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}\n`);
  }
};

/** Internal: `--rows-of <area>` runs one area here and writes its rows to stdout as JSON. */
const ROWS_OF = '--rows-of';

/**
 * One area in a fresh Node process: what an earlier area left on the heap (100k-message sessions,
 * a gRPC server) would otherwise slow the allocation-heavy rows of the next one (the writer row
 * measured 0.67 after the other areas and 0.79 alone in the same minute).
 */
const rowsOf = (name: string): BenchRow[] => {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ROWS_OF, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`area ${name} failed (exit ${child.status ?? child.signal})`);
  return JSON.parse(child.stdout) as BenchRow[];
};

const main = async () => {
  const args = process.argv.slice(2);
  if (args[0] === ROWS_OF && args.length === 2 && args[1]! in areas) {
    process.stdout.write(JSON.stringify(await areas[args[1]!]!.rows()));
    return;
  }
  const names = selected(args);
  const rows: StoredRow[] = [];
  for (const name of names) {
    process.stderr.write(`bench: ${name} ...\n`);
    rows.push(...rowsOf(name).map((row) => ({ ...row, area: name })));
  }
  const partial = names.length < Object.keys(areas).length;
  const previous = partial && existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as StoredRow[]) : [];
  writeFileSync(RESULTS, `${JSON.stringify(mergeResults(previous, names, rows), null, 2)}\n`);
  printTable(rows);
  process.stdout.write(`\nwrote ${RESULTS}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
