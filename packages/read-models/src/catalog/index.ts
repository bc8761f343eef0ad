export { catalogReadModel } from './catalogModel.js';
export { catalogPage, type CatalogPage, type PageQuery } from './page.js';
export { resolveSession, MIN_PREFIX } from './resolve.js';
export { resolveSessionIn } from './resolveIn.js';
export { catalogStats, type CatalogStats } from './stats.js';
export type { CatalogRow } from './row.js';
