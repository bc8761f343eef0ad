import { describe, expect, it } from 'vitest';
import { ROUTES } from '@session-ledger/http';

const messageBody = ROUTES.find((route) => route.method === 'POST' && route.path === '/sessions/:id/messages')!.body!;
const parse = (body: unknown) => {
  try {
    return messageBody.parse(body) as Record<string, unknown>;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("POST /sessions/:id/messages: the OpenAI message shape, each field as OpenAI means it", () => {
  it('name on a tool message spells toolName; tool_calls and tool_call_id spell theirs', () => {
    expect(parse({ role: 'tool', content: '42', tool_call_id: 'c1', name: 'lookup' })).toMatchObject({ toolCallId: 'c1', toolName: 'lookup' });
    expect(parse({ role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] })).toMatchObject({ toolCalls: [{ id: 'c1' }] });
  });

  it.each(['user', 'system', 'assistant'])("name on a %s message is the participant's name: refused, never stored as a tool's", (role) => {
    expect(parse({ role, content: 'hi', name: 'alice' })).toBe(`name on a ${role} message is OpenAI's participant name, which the ledger does not keep; it spells toolName on a tool message only`);
  });
});
