export { webAsset, PUBLIC_DIR, type WebAsset } from './assets.js';
export { serveWeb, PAGE_HEADERS, CONTENT_SECURITY_POLICY } from './serveWeb.js';
