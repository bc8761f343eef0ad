import { describe, expect, it } from 'vitest';
import { codexInterim, repairAlternation, type HermesShaped } from '@session-ledger/import-hermes';

const say = (role: string, content: string): HermesShaped => ({ role, content, toolCalls: null, toolCallId: null, toolName: null });

describe("Hermes' alternation repair of the history it sends the model", () => {
  it('joins two assistant turns in a row, but lets a later turn replace a verification candidate', () => {
    const user = say('user', 'Is the build green?');
    const draft = say('assistant', 'I think so.');
    const again = say('assistant', 'Checking again.');
    const final = say('assistant', 'Yes.');
    expect(repairAlternation([user, draft, final])).toEqual([user, say('assistant', 'I think so.\nYes.')]);
    expect(repairAlternation([user, draft, final], { candidates: new Set([draft]) })).toEqual([user, final]);
    expect(repairAlternation([user, draft, again, final], { candidates: new Set([draft, again]) })).toEqual([user, final]);
    expect(repairAlternation([user, draft, say('user', 'ok'), final], { candidates: new Set([draft]) })).toEqual([user, draft, say('user', 'ok'), final]);
    expect(draft.content).toBe('I think so.');
  });

  it('leaves a Codex interim turn apart from the assistant turns around it, candidate or not', () => {
    const user = say('user', 'Two lines about the sea.');
    const first = say('assistant', 'The sea is wide,');
    const second = say('assistant', 'and the tide is high.');
    expect(repairAlternation([user, first, second], { interims: new Set([first]) })).toEqual([user, first, second]);
    expect(repairAlternation([user, first, second], { interims: new Set([second]) })).toEqual([user, first, second]);
    expect(repairAlternation([user, first, second], { candidates: new Set([first]), interims: new Set([second]) })).toEqual([user, first, second]);
  });

  it('tells a Codex interim turn by its finish reason or by Codex replay items that read back non-empty', () => {
    expect(codexInterim('incomplete', {})).toBe(true);
    expect(codexInterim('stop', { codex_reasoning_items: '[{"type":"reasoning"}]' })).toBe(true);
    expect(codexInterim('stop', { codex_message_items: '[]' })).toBe(false);
    expect(codexInterim('stop', { codex_message_items: '{broken' })).toBe(false);
    expect(codexInterim(null, {})).toBe(false);
  });
});
