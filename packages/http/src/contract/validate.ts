import { invalidInput } from '@session-ledger/core';
import { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * The issue to report: inside a union, the branch that got furthest (not refused for its type at
 * the top), with its path joined to the union's, so the message names the field that is wrong.
 */
const deepest = (issue: Issue): Issue => {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const branches = issue.errors.filter((branch) => branch.length > 0);
  const closest = branches.find((branch) => !(branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0));
  if (!closest) {
    const expected = branches.map((branch) => (branch[0]!.code === 'invalid_type' ? branch[0]!.expected : branch[0]!.message));
    return { ...issue, message: `expected ${[...new Set(expected)].join(' or ')}` };
  }
  const inner = deepest(closest[0]!);
  return { ...inner, path: [...issue.path, ...inner.path] } as Issue;
};

const issueText = (error: z.ZodError, where: string): { message: string; field?: string } => {
  const first = error.issues[0];
  if (!first) return { message: `Invalid ${where}` };
  const issue = deepest(first);
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = [...issue.path.map(String), ...keys.slice(0, 1)].join('.');
  const message = issue.code === 'unrecognized_keys' ? `unknown ${keys.length > 1 ? 'keys' : 'key'} ${keys.map((key) => JSON.stringify(key)).join(', ')}` : issue.message;
  return { message: `Invalid ${where}${issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : ''}: ${message}`, field: path || undefined };
};

/** Parses a value by a schema; any issue is invalid_input (400) naming where it is. */
export const parseBy = <S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { message, field } = issueText(parsed.error, where);
  throw invalidInput(message, field);
};

const unwrap = (schema: z.ZodType): z.ZodType => {
  const def = schema.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.in);
  return schema;
};

/** The keys of a query schema whose parameter may repeat (arrays). */
export const repeatable = (schema: z.ZodType): Set<string> => {
  const shape = (unwrap(schema) as z.ZodObject).shape ?? {};
  return new Set(Object.entries(shape).filter(([, field]) => unwrap(field as z.ZodType).def.type === 'array').map(([key]) => key));
};

/** repeatable() of each query schema, worked out once (the schemas are module constants). */
const repeatableOf = new WeakMap<z.ZodType, Set<string>>();

/** A query as an object for its schema: repeatable parameters as arrays; any other given twice is refused. */
export const queryObject = (schema: z.ZodType, search: URLSearchParams): Record<string, string | string[]> => {
  let arrays = repeatableOf.get(schema);
  if (!arrays) repeatableOf.set(schema, (arrays = repeatable(schema)));
  // No prototype: `?__proto__=1` is then an own key that the strict schema refuses like any other,
  // not an assignment to the object's prototype that made the parameter vanish.
  const object: Record<string, string | string[]> = Object.create(null);
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (arrays.has(key)) object[key] = values;
    else if (values.length > 1) throw invalidInput(`Invalid query: ${JSON.stringify(key)} given ${values.length} times`, key);
    else object[key] = values[0]!;
  }
  return object;
};
