export { webAsset, PUBLIC_DIR, type WebAsset } from './assets.js';
export { serveWeb, isWebPath, WEB_METHODS, PAGE_HEADERS, CONTENT_SECURITY_POLICY } from './serveWeb.js';
