import type { ServerResponse } from 'node:http';
import { webAsset } from './assets.js';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Sent with the page and every asset: no inline script or style, nothing from elsewhere, no referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const PAGE = /^\/(?:s\/[^/]+\/?)?$/;
const ASSET = /^\/assets\/([A-Za-z0-9_-]+\.(?:js|css))$/;

const keyOf = (path: string): string | undefined => {
  if (PAGE.test(path)) return 'index.html';
  const asset = ASSET.exec(path);
  return asset ? `assets/${asset[1]}` : undefined;
};

/** The methods the page's paths answer (OPTIONS answered by the HTTP service, with its CORS rules). */
export const WEB_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** Whether a path is the page's (`/`, `/s/ID`) or one of its assets: the service answers OPTIONS there, and 405 to other methods. */
export const isWebPath = (path: string): boolean => {
  const key = keyOf(path);
  return key !== undefined && webAsset(key) !== undefined;
};

/**
 * Answers GET/HEAD of the page (`/`, `/s/ID`) and its assets (`/assets/NAME`); returns false for
 * anything else, which the API then answers. The files hold no ledger data, so they need no token:
 * the page asks for one when the API does.
 */
export const serveWeb = (method: string, path: string, res: ServerResponse): boolean => {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const key = keyOf(path);
  const asset = key === undefined ? undefined : webAsset(key);
  if (!asset) return false;
  res.writeHead(200, { ...PAGE_HEADERS, 'content-type': asset.type, 'content-length': String(asset.body.length) });
  res.end(method === 'HEAD' ? undefined : asset.body);
  return true;
};
