import { z } from 'zod';
import { JSON_VALUE_SCHEMA } from './contract/common.js';
import { PATH_PARAMETERS, SELECTOR_ID } from './contract/pathParameters.js';
import { problem } from './contract/responses.js';
import type { Route } from './types.js';

type JsonSchema = Record<string, unknown>;

const schemaOf = (schema: z.ZodType): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const PROBLEM = { description: 'an error: RFC 9457 problem details', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

const parameters = (route: Route): JsonSchema[] => {
  const path = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => {
    const schema = PATH_PARAMETERS[name!];
    if (!schema) throw new Error(`The path parameter ${name} of ${route.path} has no schema in PATH_PARAMETERS`);
    const described = name === 'id' && route.selector ? { ...schemaOf(schema), description: SELECTOR_ID } : schemaOf(schema);
    return { name, in: 'path', required: true, schema: described };
  });
  const headers = Object.entries(route.headers ?? {}).map(([name, spec]) => ({ name, in: 'header', required: spec.required ?? false, description: spec.description, schema: spec.schema ? schemaOf(spec.schema) : { type: 'string' } }));
  if (!route.query) return [...path, ...headers];
  const query = schemaOf(route.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return [
    ...path,
    ...headers,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
      schema,
    })),
  ];
};

const operation = (route: Route): JsonSchema => {
  const responses: JsonSchema = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const content = spec.schema
      ? { 'application/json': { schema: schemaOf(spec.schema) } }
      : spec.contentType
        ? Object.fromEntries([spec.contentType].flat().map((type) => [type, { schema: { type: 'string' } }]))
        : Number(status) >= 400
          ? PROBLEM.content
          : undefined;
    responses[status] = { description: spec.description, ...(content ? { content } : {}) };
  }
  responses['400'] ??= { description: 'bad input: a malformed path, query or body, or an unknown key', content: PROBLEM.content };
  responses.default = PROBLEM;
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z]+([A-Za-z])/g, (_all, letter: string) => letter.toUpperCase())}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: !route.body.safeParse({}).success, content: { 'application/json': { schema: schemaOf(route.body) } } } } : {}),
    responses,
  };
};

/** The OpenAPI 3.1 document of the service, generated from the same schemas that validate every request. */
export const openApiDocument = (routes: Route[], version: string): JsonSchema => {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'session-ledger',
      version,
      description:
        'The session ledger over HTTP. Request bodies are application/json (415 otherwise); unknown keys are refused (400). ' +
        'Errors are application/problem+json. Every GET answers HEAD; every path answers OPTIONS.',
    },
    components: {
      schemas: { Problem: schemaOf(problem), JsonValue: JSON_VALUE_SCHEMA },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'required when the server was started with a token' } },
    },
    // The token is optional: a loopback server started without one needs none.
    security: [{ bearer: [] }, {}],
    paths,
  };
};
