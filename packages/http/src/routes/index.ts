import { auditRoutes } from './audit.js';
import { eventRoutes } from './events.js';
import { memoryRoutes } from './memory.js';
import { retentionRoutes } from './retention.js';
import { sessionRoutes } from './sessions.js';
import type { Route } from '../types.js';

/** Every route group, one file each. A new group adds one line here. */
export const ROUTE_GROUPS: Route[][] = [eventRoutes, auditRoutes, sessionRoutes, retentionRoutes, memoryRoutes];
