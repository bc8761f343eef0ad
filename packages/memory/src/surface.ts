import { invalidInput, jsonSafe, type EventStore, type JsonValue } from '@session-ledger/core';
import type { MemoryEntry } from '@session-ledger/projections';
import type { Budgets } from './budgets.js';
import type { BatchResult } from './memoryLedger.js';
import type { Adopted } from './mirror/adopt.js';
import { createMarkdownMirror, type MarkdownMirror } from './mirror/index.js';
import { startMemoryFanOut, type FanOutWarning, type MemoryFanOut } from './providers/index.js';
import type { ProviderStatus } from './providers/statusEvents.js';

/** Settings the CLI and the HTTP service read (environment variables of the same names). */
export const MEMORY_SETTINGS = {
  mirror: 'SESSION_LEDGER_MEMORY_MIRROR',
  mirrorProfile: 'SESSION_LEDGER_MEMORY_MIRROR_PROFILE',
  /** The mirror's provider name (its checkpoint and parked state): one per profile mirrored (helper-94 F13). */
  mirrorName: 'SESSION_LEDGER_MEMORY_MIRROR_NAME',
  memoryBudget: 'SESSION_LEDGER_MEMORY_BUDGET',
  userBudget: 'SESSION_LEDGER_USER_BUDGET',
} as const;

type Settings = Record<string, string | undefined>;

const budgetSetting = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw invalidInput(`${name} must be a whole number of characters below 2^53: ${text}`, name);
  return Number(text);
};

/** Budgets from settings; unset ones keep the defaults. */
export const budgetsFromSettings = (settings: Settings): Partial<Budgets> => {
  const out: Partial<Budgets> = {};
  const memory = budgetSetting(MEMORY_SETTINGS.memoryBudget, settings[MEMORY_SETTINGS.memoryBudget]);
  const user = budgetSetting(MEMORY_SETTINGS.userBudget, settings[MEMORY_SETTINGS.userBudget]);
  if (memory !== undefined) out.memory = memory;
  if (user !== undefined) out.user = user;
  return out;
};

/** The Markdown mirror the settings configure, if any. */
export const mirrorFromSettings = (settings: Settings): MarkdownMirror | null => {
  const dir = settings[MEMORY_SETTINGS.mirror];
  if (!dir) return null;
  return createMarkdownMirror({ dir, profile: settings[MEMORY_SETTINGS.mirrorProfile] || undefined, name: settings[MEMORY_SETTINGS.mirrorName] || undefined });
};

/** Starts the fan-out to the configured providers; null when none is configured. */
export const startConfiguredFanOut = (
  store: EventStore,
  settings: Settings,
  onWarning?: (warning: FanOutWarning) => void,
): MemoryFanOut | null => {
  const mirror = mirrorFromSettings(settings);
  return mirror ? startMemoryFanOut(store, [mirror], onWarning ? { onWarning } : {}) : null;
};

/** The JSON shapes every surface prints. */
export const entryToJson = (entry: MemoryEntry) => ({ id: entry.id, target: entry.target, content: entry.content });

export const batchResultToJson = (result: BatchResult): JsonValue =>
  jsonSafe({
    profile: result.profile,
    revision: result.revision,
    position: result.position,
    written: result.written,
    receipts: result.receipts.map((receipt) => ({
      op: receipt.op,
      entryId: receipt.entryId,
      target: receipt.target,
      previousContent: receipt.previousContent,
      content: receipt.content,
      selector: receipt.selector,
    })),
  });

export const adoptedToJson = (adopted: Adopted): JsonValue =>
  jsonSafe({
    dir: adopted.dir,
    profile: adopted.profile,
    operations: adopted.operations,
    batch: adopted.batch === null ? null : batchResultToJson(adopted.batch),
    rebuilt: adopted.rebuilt,
  });

export const providerStatusToJson = (status: ProviderStatus): JsonValue => jsonSafe(status);
