export type { HermesMessage, HermesSchema, HermesSession, HermesSnapshot, RowState } from './model.js';
export { readSnapshot } from './source/readSnapshot.js';
export { openSource, type OpenSourceOptions } from './source/openSource.js';
export { describeSchema } from './source/schema.js';
export { activeHistory, displayHistory, displayKey } from './plan/displayHistory.js';
export { childKind, conversations, type ChildKind, type Conversation } from './plan/lineage.js';
export { sessionPlan, type PlanStep } from './plan/sessionPlan.js';
export { parseEntries } from './memory/parseEntries.js';
export { readMemoryDir, type MemoryFileEntries, type MemoryTarget } from './memory/readMemoryDir.js';
