export { createHttpService, isLoopback, type HttpServiceOptions } from './server.js';
export { HTTP_STATUSES } from './statuses.js';
export { streamSse, resumePosition } from './sse.js';
export type { Route, Reply, RequestContext, ServiceContext } from './types.js';
