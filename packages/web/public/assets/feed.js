import { request } from './api.js';

/** Splits Server-Sent Events text into events; returns the parsed events and the unfinished rest. */
export const parseSse = (buffer) => {
  const events = [];
  let split;
  while ((split = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, split);
    buffer = buffer.slice(split + 2);
    const event = { id: undefined, event: 'message', data: '' };
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') event.data += value;
    }
    if (event.id !== undefined || event.data !== '') events.push(event);
  }
  return { events, rest: buffer };
};

/** Whether a feed event is the feed's last word on a deleted conversation (`event: error`, data `{type: "session_deleted"}`). */
const isDeletion = (event) => {
  if (event.event !== 'error') return false;
  try {
    return JSON.parse(event.data).type === 'session_deleted';
  } catch {
    return false;
  }
};

/**
 * Follows a conversation's SSE feed through fetch() (EventSource cannot send the bearer token): calls
 * `onChange` once history is caught up and for every event after it, reconnects after the last id it saw when the
 * stream ends, and stops for good on abort or a 404/410. When the conversation is deleted (the feed's
 * `session_deleted`, or a reconnect answered 410) it calls `onGone` once: before, the page took that
 * last event for a change, its reload failed quietly, and it kept showing what had been erased, every
 * button enabled (outside test, session 27).
 */
export const followSession = (id, onChange, signal, onGone = () => undefined) => {
  let after = null;
  let caughtUp = false;
  const once = async () => {
    const query = after === null ? '' : `?after=${encodeURIComponent(after)}`;
    const response = await request(`/sessions/${encodeURIComponent(id)}/events${query}`, { headers: { accept: 'text/event-stream' }, signal });
    if (response.status === 410) onGone();
    if (response.status === 404 || response.status === 410) return false;
    if (!response.ok || !response.body) return true;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      const parsed = parseSse(buffer + value);
      buffer = parsed.rest;
      for (const event of parsed.events) {
        if (event.id !== undefined) after = event.id;
        if (isDeletion(event)) {
          onGone();
          return false;
        }
        // The first caught-up counts as a change: the page read its view before the feed connected, and what
        // was written in between came as history, which reloaded nothing (outside test, session 35, helper-96 F2).
        if (event.event === 'caught-up') {
          if (!caughtUp) onChange(event);
          caughtUp = true;
        } else if (caughtUp) onChange(event);
      }
    }
  };
  (async () => {
    while (!signal.aborted) {
      let again = true;
      try {
        again = await once();
      } catch {
        // a dropped connection: reconnect after the last id
      }
      if (!again || signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
};
