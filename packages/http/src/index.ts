export { createHttpService, isLoopback, DEFAULT_MAX_SUBSCRIBERS, type HttpServiceOptions } from './server.js';
export { checkServiceOptions } from './serviceOptions.js';
export { HTTP_STATUSES } from './statuses.js';
export { streamSse, resumeFrom, sseField } from './sse.js';
export { openApi, ROUTES } from './routes/index.js';
export { problemOf, problemType } from './problem.js';
export type { Route, Reply, RequestContext, ServiceContext } from './types.js';
export { localSlots, type SubscriberSlots } from './subscriberSlots.js';
