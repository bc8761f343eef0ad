import base from './vitest.config.js';

/**
 * The tests Stryker runs (`npm run mutate`): the unit, integration and conformance tests that exercise the
 * guarantee-bearing modules through the library, on the in-memory and SQLite stores. Not the e2e tests
 * (they run the built CLI, which Stryker's in-memory mutants never reach) nor the EventStoreDB test double
 * (the same append rules, several times slower: SESSION_LEDGER_TEST_STORES leaves it out of the shared scenarios).
 */
export default {
  ...base,
  test: {
    ...base.test,
    env: { SESSION_LEDGER_TEST_STORES: 'memory,sqlite' },
    include: [
      'test/core/*.unit.test.ts',
      'test/conformance/memory.conformance.test.ts',
      'test/conformance/sqlite.conformance.test.ts',
      'test/memory/*.unit.test.ts',
      'test/memory/ledger.int.test.ts',
      'test/memory/targets.int.test.ts',
      'test/retention/delete.int.test.ts',
      'test/retention/verify.int.test.ts',
      'test/retention/guard.int.test.ts',
      'test/retention/tombstone.int.test.ts',
      'test/retention/recheck.int.test.ts',
      'test/sessions/*.unit.test.ts',
      'test/sessions/*.int.test.ts',
    ],
  },
};
