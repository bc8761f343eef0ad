import { isLedgerError, tooDeepToWrite } from '@session-ledger/core';
import { HTTP_STATUSES } from './statuses.js';

/**
 * Errors of the HTTP surface itself (a refused Host or Origin, a wrong content type, a body too large,
 * no such route), beside the ledger's own LedgerError family. Both become one RFC 9457 problem.
 */
export interface HttpProblem extends Error {
  readonly httpStatus: number;
  readonly code: string;
  readonly headers: Record<string, string>;
}

export const httpProblem = (status: number, code: string, detail: string, headers: Record<string, string> = {}): HttpProblem =>
  Object.assign(new Error(detail), { httpStatus: status, code, headers });

const isHttpProblem = (error: unknown): error is HttpProblem => error instanceof Error && typeof (error as Partial<HttpProblem>).httpStatus === 'number';

/** The problem type URI of an error code: `urn:session-ledger:error:<code>`. */
export const problemType = (code: string): string => `urn:session-ledger:error:${code}`;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  428: 'Precondition Required',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export interface Problem {
  status: number;
  headers: Record<string, string>;
  body: {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    details: unknown;
    /** The error object of earlier versions, kept for clients that read `error.type`. */
    error: { type: string; message: string; details: unknown };
  };
}

const problem = (status: number, code: string, detail: string, details: unknown, headers: Record<string, string> = {}): Problem => ({
  status,
  headers,
  body: { type: problemType(code), title: TITLES[status] ?? 'Error', status, detail, code, details, error: { type: code, message: detail, details } },
});

/** Any thrown value as a problem: ledger errors by the one status table, HTTP problems as they are, anything else 500. */
export const problemOf = (error: unknown): Problem => {
  if (isLedgerError(error)) return problem(HTTP_STATUSES[error.type], error.type, error.message, error.details);
  if (isHttpProblem(error)) return problem(error.httpStatus, error.code, error.message, {}, error.headers);
  const deep = tooDeepToWrite(error);
  if (deep) return problemOf(deep);
  return problem(500, 'internal', error instanceof Error ? error.message : String(error), {});
};
