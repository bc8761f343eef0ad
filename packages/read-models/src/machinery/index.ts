export { inlineReadModels, type InlineOptions, type ReadModels } from './inline.js';
export { subscribedReadModels, erasingStore } from './subscribed.js';
export type { ReadModelMeta, ReadModelStatus } from './meta.js';
export type { Progress } from './catchUp.js';
export { DEFAULT_READ_MODELS, attachReadModels, readModelsOf, withSubscribedReadModels } from './registry.js';
