/** Writes through the HTTP API, as a harness would; throws on any non-2xx answer. */
export const apiOf = (url: string, token?: string) => async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
};

export type Api = ReturnType<typeof apiOf>;

/**
 * A conversation with everything the page shows: a compaction (two compacted messages), a rewrite
 * (one earlier version), a tool call and its result, a compression into a tip, and the tip's latest message.
 */
export const seedConversation = async (api: Api, root = 'web-root', tip = 'web-tip') => {
  await api('POST', '/sessions', { id: root, title: 'Trip planning', source: 'hermes', model: 'gpt-test' });
  const say = (session: string, id: string, role: string, content: string | null, extra: Record<string, unknown> = {}) =>
    api('POST', `/sessions/${session}/messages`, { id, role, content, ...extra });
  await say(root, 'm1', 'user', 'Where should we go in spring?');
  await say(root, 'm2', 'assistant', 'Kyoto, for the cherry blossoms.');
  await api('POST', `/sessions/${root}/compact`, { through: 'm2', summary: 'They chose Kyoto in spring.' });
  await say(root, 'm3', 'user', 'And the budget?');
  await api('PATCH', `/sessions/${root}/messages/m3`, { content: 'And the budget, roughly?' });
  await say(root, 'm4', 'assistant', null, { toolCalls: [{ id: 'call-1', type: 'function', function: { name: 'lookup_prices', arguments: '{"city":"Kyoto"}' } }] });
  await say(root, 'm5', 'tool', '{"hotel": 120}', { toolCallId: 'call-1', toolName: 'lookup_prices' });
  await api('POST', `/sessions/${root}/compress`, { summary: 'Planning continues in a new segment.', childId: tip });
  await say(tip, 'm6', 'assistant', 'Budget: about 2000 EUR.');
  return { root, tip };
};
