import { describe, expect, it } from 'vitest';
import { repairAlternation, type HermesShaped } from '@session-ledger/import-hermes';

const say = (role: string, content: string): HermesShaped => ({ role, content, toolCalls: null, toolCallId: null, toolName: null });

describe("Hermes' alternation repair of the history it sends the model", () => {
  it('joins two assistant turns in a row, but lets a later turn replace a verification candidate', () => {
    const user = say('user', 'Is the build green?');
    const draft = say('assistant', 'I think so.');
    const again = say('assistant', 'Checking again.');
    const final = say('assistant', 'Yes.');
    expect(repairAlternation([user, draft, final])).toEqual([user, say('assistant', 'I think so.\nYes.')]);
    expect(repairAlternation([user, draft, final], new Set([draft]))).toEqual([user, final]);
    expect(repairAlternation([user, draft, again, final], new Set([draft, again]))).toEqual([user, final]);
    expect(repairAlternation([user, draft, say('user', 'ok'), final], new Set([draft]))).toEqual([user, draft, say('user', 'ok'), final]);
    expect(draft.content).toBe('I think so.');
  });
});
