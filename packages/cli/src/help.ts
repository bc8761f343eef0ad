import { EXIT_CODE_TABLE } from './exitCodes.js';

const EXAMPLES = [
  'ID=$(session-ledger sessions start --title demo)       # stdout: the id alone',
  'TURN=$(session-ledger turns begin "$ID" --ttl 5m)      # stdout: the turn id alone',
  'session-ledger messages append "$ID" --role user --content hello --turn "$TURN"',
  'session-ledger turns end "$ID" "$TURN"',
  'session-ledger sessions resume "$ID"',
  'session-ledger --json sessions list',
  'session-ledger sessions export "$ID" --format markdown --out chat.md',
  'session-ledger sessions delete "$ID" --yes                # --yes: off a terminal, required',
  'session-ledger events all | head -1',
  'session-ledger migrate --from sqlite:./ledger.sqlite --to "esdb://localhost:2113?tls=false"',
];

const ENVIRONMENT: Array<[string, string]> = [
  ['SESSION_LEDGER_STORE', 'store URL when --store is not given'],
  ['SESSION_LEDGER_HOME', 'directory of the default store sqlite:$SESSION_LEDGER_HOME/ledger.sqlite (default ~/.session-ledger)'],
  ['SESSION_LEDGER_TOKEN', 'bearer token of `serve` (as --token)'],
  ['SESSION_LEDGER_WORKERS', 'processes `serve` runs on a sqlite: store (as --workers; default 1)'],
  ['SESSION_LEDGER_MEMORY_MIRROR', 'Markdown mirror directory of memory (as --mirror)'],
  ['SESSION_LEDGER_MEMORY_MIRROR_PROFILE', 'memory profile the mirror follows'],
  ['SESSION_LEDGER_MEMORY_MIRROR_NAME', 'provider name of the mirror (default markdown-mirror; one per profile mirrored)'],
  ['SESSION_LEDGER_MEMORY_BUDGET', 'character budget of the memory target (default 2200)'],
  ['SESSION_LEDGER_USER_BUDGET', 'character budget of the user target (default 1375)'],
  ['SESSION_LEDGER_DEBUG', 'when set, an internal error (exit 70) also prints its stack'],
  ['CI', 'when set, no progress bars'],
];

const table = (rows: ReadonlyArray<readonly [string | number, string]>): string[] => {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}  ${text}`);
};

/** What `session-ledger --help` prints after the commands: examples, environment variables, exit codes. */
export const helpFooter = (): string =>
  [
    '',
    'Output: values on stdout, one a line (ids print alone, so $(...) captures them); hints and errors on stderr;',
    '--json prints one JSON document. Stored text is printed with control, bidi and other unsafe characters',
    'escaped as \\uXXXX (in JSON too). sessions delete and prune ask before deleting on a terminal; elsewhere',
    'they need --yes.',
    '',
    'Examples:',
    ...EXAMPLES.map((example) => `  ${example}`),
    '',
    'Environment:',
    ...table(ENVIRONMENT),
    '',
    'Exit codes:',
    ...table(EXIT_CODE_TABLE),
  ].join('\n');
