import { invalidInput, notFound } from '@session-ledger/core';
import {
  batchResultToJson,
  budgetsFromSettings,
  createMemoryLedger,
  entryToJson,
  mirrorFromSettings,
  parseBatch,
  providerStatusToJson,
  readProviderStatus,
  readProviderStatuses,
  resumeProviders,
  type MemoryOperation,
} from '@session-ledger/memory';
import { z } from 'zod';
import type { RequestContext, Route } from '../types.js';

const causation = z.strictObject({ sessionId: z.string().min(1).optional(), turnId: z.string().min(1).optional() });
const target = z.enum(['memory', 'user']);
const common = { profile: z.string().optional(), causation: causation.optional() };

const bodies = {
  add: z.strictObject({ ...common, target, content: z.string() }),
  replace: z.strictObject({ ...common, target, old: z.string(), content: z.string() }),
  remove: z.strictObject({ ...common, target, old: z.string() }),
  apply: z.strictObject({ ...common, operations: z.unknown() }),
};

const parseBody = <S extends z.ZodType>(schema: S, body: unknown, shape: string): z.infer<S> => {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  throw invalidInput(`Body must be ${shape}; ${path}${issue?.message ?? 'invalid'}`, issue?.path.map(String).join('.') || undefined);
};

const write = async (
  context: RequestContext,
  operations: MemoryOperation[],
  options: { profile?: string; causation?: z.infer<typeof causation> },
) => {
  const memory = createMemoryLedger(context.store, { budgets: budgetsFromSettings(context.settings) });
  const result = await memory.apply(operations, { profile: options.profile, causation: options.causation });
  return { body: batchResultToJson(result) };
};

const writeRoute = <K extends 'add' | 'replace' | 'remove'>(op: K, shape: string): Route => ({
  method: 'POST',
  path: `/memory/${op}`,
  handler: async (context) => {
    const body = parseBody(bodies[op] as z.ZodType, context.body, shape) as z.infer<(typeof bodies)['add']> & { old?: string };
    const { profile, causation: cause, ...operation } = body;
    return write(context, [{ op, ...operation } as unknown as MemoryOperation], { profile, causation: cause });
  },
});

/** The memory ledger over HTTP; the same forms and JSON as the `memory` CLI commands. */
export const memoryRoutes: Route[] = [
  {
    method: 'GET',
    path: '/memory/entries',
    handler: async ({ store, query }) => {
      const wanted = query.get('target');
      if (wanted !== null && wanted !== 'memory' && wanted !== 'user') throw invalidInput(`target must be memory or user: ${wanted}`, 'target');
      const entries = await createMemoryLedger(store).list({ profile: query.get('profile') ?? undefined, target: wanted ?? undefined });
      return { body: entries.map(entryToJson) };
    },
  },
  writeRoute('add', '{"target", "content", "profile"?, "causation"?}'),
  writeRoute('replace', '{"target", "old", "content", "profile"?, "causation"?}'),
  writeRoute('remove', '{"target", "old", "profile"?, "causation"?}'),
  {
    method: 'POST',
    path: '/memory/apply',
    handler: async (context) => {
      const body = Array.isArray(context.body)
        ? { operations: context.body }
        : parseBody(bodies.apply, context.body, '[ops] or {"operations": [ops], "profile"?, "causation"?}');
      const { operations, profile, causation: cause } = body as z.infer<(typeof bodies)['apply']>;
      return write(context, parseBatch(operations), { profile, causation: cause });
    },
  },
  {
    method: 'GET',
    path: '/memory/providers',
    handler: async ({ store }) => ({ body: (await readProviderStatuses(store)).map(providerStatusToJson) }),
  },
  {
    method: 'GET',
    path: '/memory/providers/:name',
    handler: async ({ store, params }) => ({ body: providerStatusToJson(await readProviderStatus(store, params.name!)) }),
  },
  {
    method: 'POST',
    path: '/memory/providers/resume',
    handler: async ({ store, body }) => {
      const parsed = parseBody(z.strictObject({ name: z.string().optional() }).nullable(), body, '{"name"?}');
      return { body: { resumed: await resumeProviders(store, parsed?.name ?? undefined, 'http') } };
    },
  },
  {
    method: 'POST',
    path: '/memory/mirror/rebuild',
    handler: async ({ store, settings }) => {
      const mirror = mirrorFromSettings(settings);
      if (!mirror) throw notFound('configured memory mirror', 'SESSION_LEDGER_MEMORY_MIRROR');
      const result = await mirror.rebuild(store);
      return { body: { dir: mirror.dir, profile: mirror.profile, entries: result.entries, position: result.position === null ? null : Number(result.position) } };
    },
  },
];
