import { notFound, type EventStore } from '@session-ledger/core';
import {
  adoptedToJson,
  adoptHandEdits,
  batchResultToJson,
  BATCH_ID_MAX,
  budgetsFromSettings,
  CAUSATION_MAX,
  choiceProblem,
  CONTENT_PATTERN,
  createMemoryLedger,
  entryToJson,
  MAX_BATCH_OPERATIONS,
  TOO_MANY_OPERATIONS,
  mirrorFromSettings,
  parseBatch,
  PROFILE_PATTERN,
  providerStatusToJson,
  readProviderStatus,
  readProviderStatuses,
  resumeProviders,
  SELECTOR_PATTERN,
  type MemoryLedger,
  type MemoryOperation,
} from '@session-ledger/memory';
import { memoryEntryId } from '@session-ledger/events';
import { z } from 'zod';
import { name, revision } from '../contract/common.js';
import { PATH_PARAMETERS } from '../contract/pathParameters.js';
import * as R from '../contract/responses.js';
import { route, type RequestContext, type Route } from '../types.js';

// Each field carries the rule the memory ledger applies, so the document states what is refused
// (it published any string, and the server refused these with 400; outside test, session 30).
/** A session or turn id: at most CAUSATION_MAX characters (it is stored in every event of the batch). */
const causeId = name.max(CAUSATION_MAX);
const causation = z.strictObject({ sessionId: causeId.optional(), turnId: causeId.optional() }).describe('the session and turn that caused the change');
const target = z.enum(['memory', 'user']);
const profile = z.string().regex(new RegExp(PROFILE_PATTERN), 'must be 1-64 letters, digits, "_", "." or "-", starting with a letter or digit');
const content = z.string().regex(new RegExp(CONTENT_PATTERN), 'must hold some text, and no line with only §');
const old = z
  .string()
  .regex(new RegExp(SELECTOR_PATTERN), 'must hold some text')
  .describe('a unique substring of the entry (or give entryId)')
  .optional();
const entryId = memoryEntryId.describe("the entry's id, from GET /memory/entries or a receipt: that entry or none (or give old)").optional();
/** A replace or remove names its entry by `old` or by `entryId`, exactly one. */
const choice = { old, entryId };
const oneChoice = (body: { old?: string; entryId?: string }, context: z.RefinementCtx, path: (string | number)[] = []) => {
  const problem = choiceProblem(body);
  if (problem !== null) context.addIssue({ code: 'custom', path: [...path, 'old'], message: problem });
};
const common = {
  profile: profile.optional().describe('default: "default"'),
  causation: causation.optional(),
  expectedRevision: revision
    .nullish()
    .describe("the profile's revision the selectors were chosen at (GET /memory/entries' ETag, or a write's revision): refused (409) if another writer changed the profile since"),
  batchId: name
    .max(BATCH_ID_MAX)
    .optional()
    .describe('your id for the batch (an idempotency key): the same operations again under it answer the first commit (written: false), other operations under it are refused (409)'),
};
const operation = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), target, content }),
  z.strictObject({ op: z.literal('replace'), target, ...choice, content }),
  z.strictObject({ op: z.literal('remove'), target, ...choice }),
]);
const operations = z
  .array(operation)
  .min(1, 'the batch is empty')
  .max(MAX_BATCH_OPERATIONS, TOO_MANY_OPERATIONS)
  .superRefine((ops, context) => ops.forEach((op, index) => op.op !== 'add' && oneChoice(op, context, [index])));

const bodies = {
  add: z.strictObject({ ...common, target, content }),
  replace: z.strictObject({ ...common, target, ...choice, content }).superRefine((body, context) => oneChoice(body, context)),
  remove: z.strictObject({ ...common, target, ...choice }).superRefine((body, context) => oneChoice(body, context)),
  apply: z.union([operations, z.strictObject({ ...common, operations })]),
};

const ERRORS = {
  404: { description: 'no entry matches `old`, or none has `entryId`' },
  409: { description: 'ambiguous selection, duplicate (also: other operations under a batchId already committed), over budget, or a stale expectedRevision' },
};

/**
 * One memory ledger per store and budgets, kept across requests: its state cache reads only the events
 * since the last request. One per request folded the whole profile each time: at 20,000 events an add
 * took 2-4 s of the server's thread (outside test, session 34, helper-94 F12).
 */
const ledgers = new WeakMap<EventStore, { budgets: string; memory: MemoryLedger }>();
const memoryOf = (store: EventStore, settings: RequestContext<unknown, unknown>['settings']): MemoryLedger => {
  const budgets = budgetsFromSettings(settings);
  const key = JSON.stringify(budgets);
  const kept = ledgers.get(store);
  if (kept?.budgets === key) return kept.memory;
  const memory = createMemoryLedger(store, { budgets });
  ledgers.set(store, { budgets: key, memory });
  return memory;
};

type WriteBody = { profile?: string; causation?: z.infer<typeof causation>; expectedRevision?: number | string | null; batchId?: string };

const write = async (context: RequestContext<unknown, unknown>, operations: MemoryOperation[], options: WriteBody) => {
  const memory = memoryOf(context.store, context.settings);
  const expected = options.expectedRevision === undefined || options.expectedRevision === null ? {} : { expectedRevision: BigInt(options.expectedRevision) };
  const result = await memory.apply(operations, { profile: options.profile, causation: options.causation, ...expected, ...(options.batchId === undefined ? {} : { batchId: options.batchId }) });
  return { body: batchResultToJson(result) };
};

const writeRoute = <K extends 'add' | 'replace' | 'remove'>(op: K): Route =>
  route({
    method: 'POST',
    path: `/memory/${op}`,
    tag: 'memory',
    summary: `${op[0]!.toUpperCase()}${op.slice(1)} one memory entry`,
    body: bodies[op] as (typeof bodies)['replace'],
    responses: { 200: { description: 'applied; the receipts', schema: R.memoryBatch }, ...ERRORS },
    handler: async (context) => {
      const { profile, causation: cause, expectedRevision, batchId, ...rest } = context.body;
      return write(context, [{ op, ...rest } as unknown as MemoryOperation], { profile, causation: cause, expectedRevision, batchId });
    },
  });

/** The memory ledger over HTTP; the same forms and JSON as the `memory` CLI commands. */
export const memoryRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/memory/entries',
    tag: 'memory',
    summary: 'The current entries',
    description: "The ETag is the profile's revision, quoted (\"-1\": nothing written yet): give it as a write's expectedRevision to refuse the write if another writer changed the profile since.",
    query: z.strictObject({ profile: profile.optional(), target: target.optional() }),
    responses: { 200: { description: 'the entries', schema: R.memoryEntries } },
    handler: async ({ store, settings, query }) => {
      const state = await memoryOf(store, settings).state(query.profile);
      const entries = query.target === undefined ? state.entries : state.entries.filter((entry) => entry.target === query.target);
      return { body: entries.map(entryToJson), headers: { etag: `"${state.revision ?? -1n}"` } };
    },
  }),
  writeRoute('add'),
  writeRoute('replace'),
  writeRoute('remove'),
  route({
    method: 'POST',
    path: '/memory/apply',
    tag: 'memory',
    summary: 'Apply a batch of operations, all or none',
    description: 'The body is the operations array, or {operations, profile?, causation?, expectedRevision?, batchId?}.',
    body: bodies.apply,
    responses: { 200: { description: 'applied; one receipt per operation', schema: R.memoryBatch }, ...ERRORS },
    handler: async (context) => {
      const body = Array.isArray(context.body) ? { operations: context.body } : context.body;
      const { operations, ...options } = body as WriteBody & { operations: unknown[] };
      return write(context, parseBatch(operations), options);
    },
  }),
  route({
    method: 'GET',
    path: '/memory/providers',
    tag: 'memory',
    summary: 'Every memory provider and its state',
    responses: { 200: { description: 'the providers', schema: R.providerStatuses } },
    handler: async ({ store }) => ({ body: (await readProviderStatuses(store)).map(providerStatusToJson) }),
  }),
  route({
    method: 'GET',
    path: '/memory/providers/:name',
    tag: 'memory',
    summary: 'One memory provider',
    responses: { 200: { description: 'the provider', schema: R.providerStatus }, 404: { description: 'no such provider' } },
    handler: async ({ store, params }) => ({ body: providerStatusToJson(await readProviderStatus(store, params.name!)) }),
  }),
  route({
    method: 'POST',
    path: '/memory/providers/resume',
    tag: 'memory',
    summary: 'Resume a paused provider (or every one)',
    body: z.strictObject({ name: PATH_PARAMETERS.name!.optional() }),
    responses: { 200: { description: 'the providers resumed', schema: R.resumed }, 404: { description: 'no such provider' } },
    handler: async ({ store, body }) => ({ body: { resumed: await resumeProviders(store, body.name, 'http') } }),
  }),
  route({
    method: 'POST',
    path: '/memory/mirror/rebuild',
    tag: 'memory',
    summary: 'Rebuild the configured Markdown mirror',
    body: z.strictObject({}),
    responses: { 200: { description: 'rebuilt', schema: R.mirrorRebuilt }, 404: { description: 'no mirror is configured' } },
    handler: async ({ store, settings }) => {
      const mirror = mirrorFromSettings(settings);
      if (!mirror) throw notFound('configured memory mirror', 'SESSION_LEDGER_MEMORY_MIRROR');
      const result = await mirror.rebuild(store);
      return { body: { dir: mirror.dir, profile: mirror.profile, entries: result.entries, position: result.position === null ? null : Number(result.position) } };
    },
  }),
  route({
    method: 'POST',
    path: '/memory/mirror/adopt',
    tag: 'memory',
    summary: "Keep the hand edits of the configured mirror's directory",
    description:
      'Commits the edits made to MEMORY.md and USER.md since the mirror wrote them (replace and remove by entry id, add) as one batch, budgets checked, then rewrites the directory; `dryRun` only lists them. As `memory mirror adopt`.',
    body: z.strictObject({ dryRun: z.boolean().optional() }),
    responses: { 200: { description: 'the edits, the batch and the rebuild', schema: R.mirrorAdopted }, 404: { description: 'no mirror is configured' }, 409: ERRORS[409] },
    handler: async ({ store, settings, body }) => {
      const mirror = mirrorFromSettings(settings);
      if (!mirror) throw notFound('configured memory mirror', 'SESSION_LEDGER_MEMORY_MIRROR');
      const adopted = await adoptHandEdits(store, mirror, memoryOf(store, settings), { dryRun: body.dryRun === true });
      return { body: adoptedToJson(adopted) };
    },
  }),
];
