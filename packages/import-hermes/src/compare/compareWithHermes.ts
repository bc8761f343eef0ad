import { canonicalJson, type EventStore, type JsonObject, type JsonValue } from '@session-ledger/core';
import { loadConversation } from '@session-ledger/sessions';
import { activeAsHermes, displayAsHermes, fromHermes, type HermesShaped } from './hermesShape.js';

/** What Hermes' read APIs returned for one conversation (as the fixture generator dumps them). */
export interface HermesConversationViews {
  root: string;
  display: JsonObject[];
  model: JsonObject[];
}

/** Per view: null when the ledger shows what Hermes shows, else the first difference, for a person. */
export interface HermesComparison {
  display: string | null;
  active: string | null;
}

const short = (item: HermesShaped | undefined): string => {
  const text = canonicalJson((item ?? null) as unknown as JsonValue);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

export const firstShapedDifference = (hermes: HermesShaped[], ledger: HermesShaped[]): string | null => {
  for (let i = 0; i < Math.max(hermes.length, ledger.length); i += 1) {
    const a = hermes[i];
    const b = ledger[i];
    if (canonicalJson((a ?? null) as unknown as JsonValue) !== canonicalJson((b ?? null) as unknown as JsonValue)) {
      return `#${i + 1} (Hermes ${hermes.length}, ledger ${ledger.length} messages): Hermes ${short(a)} / ledger ${short(b)}`;
    }
  }
  return null;
};

/** The ledger's display and active views of one conversation against Hermes' display and model history. */
export const compareWithHermes = async (store: EventStore, hermes: HermesConversationViews): Promise<HermesComparison> => {
  const display = displayAsHermes(await loadConversation(store, hermes.root, { view: 'display' }));
  const active = activeAsHermes(await loadConversation(store, hermes.root, { view: 'active' }));
  return {
    display: firstShapedDifference(hermes.display.map(fromHermes), display),
    active: firstShapedDifference(hermes.model.map(fromHermes), active),
  };
};
