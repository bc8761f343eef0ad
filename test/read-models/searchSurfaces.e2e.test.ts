import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli, tempDir } from '../support/cli.js';
import { bodyOf, errorOf, startServer } from '../support/http.js';

const hits = z.object({
  query: z.string(),
  hits: z.array(z.object({ rootId: z.string(), tipId: z.string(), messageId: z.string(), role: z.string(), snippet: z.string(), marks: z.array(z.tuple([z.number(), z.number()])), rank: z.number() })),
});

/** Given (through the CLI): a conversation with a rewritten message, a tool result, text with a bidi override; then compressed. */
const seed = (env: Record<string, string>) => {
  const cli = (...args: string[]) => {
    const result = runCli([...args, '--json'], { env });
    if (result.code !== 0) throw new Error(`${args.join(' ')} -> ${result.code}: ${result.stderr}`);
    return result.json();
  };
  cli('sessions', 'start', '--id', 'chat', '--source', 'hermes');
  cli('messages', 'append', 'chat', '--id', 'u1', '--role', 'user', '--content', 'first draft mentions walrus');
  cli('messages', 'rewrite', 'chat', 'u1', '--content', 'final text mentions narwhal\tand a tab');
  cli('messages', 'append', 'chat', '--id', 't1', '--role', 'tool', '--tool-name', 'grep', '--content', 'found in src/pelican/nest.ts');
  cli('messages', 'append', 'chat', '--id', 'u2', '--role', 'user', '--content', 'spoof \u202Egnp.exe\u202C narwhal');
  cli('sessions', 'compress', 'chat', '--summary', 'so far');
  return cli;
};

describe('sessions search (CLI)', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  beforeAll(() => void seed(env));

  it('--json prints the contract: current text found, old text not, root and tip named', () => {
    const found = hits.parse(runCli(['sessions', 'search', 'narwhal', '--json'], { env }).json());
    expect(found.hits.map((hit) => [hit.rootId, hit.messageId])).toEqual(expect.arrayContaining([['chat', 'u1'], ['chat', 'u2']]));
    expect(found.hits.every((hit) => hit.tipId !== 'chat')).toBe(true);
    expect(hits.parse(runCli(['sessions', 'search', 'walrus', '--json'], { env }).json()).hits).toEqual([]);
    expect(hits.parse(runCli(['sessions', 'search', 'pelican', '--role', 'tool', '--source', 'hermes', '--since', '7d', '--json'], { env }).json()).hits.map((hit) => hit.messageId)).toEqual(['t1']);
  });

  it('prints one hit a line, the match between « and », stored controls escaped', () => {
    const result = runCli(['sessions', 'search', 'narwhal', '--role', 'user'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n').sort();
    expect(lines).toEqual(['chat\tu1\tuser\tfinal text mentions «narwhal»\\u0009and a tab', 'chat\tu2\tuser\tspoof \\u202egnp.exe\\u202c «narwhal»']);
  });

  it('refuses bad input with one line and exit 2', () => {
    for (const args of [['ab'], ['narwhal', '--limit', '0'], ['narwhal', '--limit', '101'], ['narwhal', '--role', 'robot'], ['narwhal', '--since', 'yesterday']]) {
      const result = runCli(['sessions', 'search', ...args], { env });
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
    }
  });
});

describe('GET /search', () => {
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    seed(env);
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());

  const get = (query: string) => fetch(`${service.url}/search?${query}`);

  it('answers the contract, filtered and limited', async () => {
    const body = await bodyOf(await get('q=narwhal&limit=1&role=user&source=hermes&since=2000-01-01T00:00:00Z'), hits);
    expect(body.query).toBe('narwhal');
    expect(body.hits).toHaveLength(1);
    const [hit] = body.hits;
    expect(hit!.snippet.slice(hit!.marks[0]![0], hit!.marks[0]![1])).toBe('narwhal');
  });

  it('treats hostile queries as text (200) and bad parameters as 400', async () => {
    for (const q of ['"', '*', 'NEAR(', '-', 'AND', '\u0000\u001b', '"narwhal" OR *']) {
      const response = await get(`q=${encodeURIComponent(q)}`);
      expect({ q, status: response.status }).toEqual({ q, status: [...q.replace(/[\s\u0000-\u001f]/g, '')].length >= 3 ? 200 : 400 });
      await response.arrayBuffer();
    }
    for (const query of ['', 'q=', `q=${'x'.repeat(501)}`, 'q=narwhal&limit=0', 'q=narwhal&limit=101', 'q=narwhal&role=robot', 'q=narwhal&since=soon', 'q=ab']) {
      const response = await get(query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect((await errorOf(response)).type).toBe('invalid_input');
    }
  });
});
