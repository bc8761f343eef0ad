import { askToken, tokenHeader } from './token.js';

/** An answer of the API that was not 2xx: its status, the problem's code and its words. */
export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

/** fetch() against this server with the bearer token when there is one; a 401 asks for the token and tries again. */
export const request = async (path, init = {}) => {
  for (;;) {
    const response = await fetch(path, { ...init, headers: { ...(init.headers ?? {}), ...tokenHeader() } });
    if (response.status === 401) {
      await askToken();
      continue;
    }
    return response;
  }
};

/** Throws an ApiError for a non-2xx answer (its problem's detail), else returns the response. */
export const ensureOk = async (response) => {
  if (response.ok || response.status === 304) return response;
  let code = 'error';
  let detail = `${response.status} ${response.statusText}`;
  try {
    const problem = await response.json();
    code = problem.code ?? problem.error?.type ?? code;
    detail = problem.detail ?? problem.error?.message ?? detail;
  } catch {
    // not JSON: keep the status line
  }
  throw new ApiError(response.status, code, detail);
};

/** GET a JSON document; returns the body and the ETag. */
export const getJson = async (path) => {
  const response = await ensureOk(await request(path, { headers: { accept: 'application/json' } }));
  return { body: await response.json(), etag: response.headers.get('etag') };
};
