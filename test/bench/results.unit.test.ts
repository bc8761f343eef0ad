import { describe, expect, it } from 'vitest';
import { mergeResults, type StoredRow } from '../../scripts/bench/results.js';

const row = (name: string, area?: string, value = 1): StoredRow => ({ name, unit: 'events/s', value, baseline: null, ratio: null, ...(area ? { area } : {}) });

describe('bench-results.json after `npm run bench -- --only AREA`', () => {
  it('drops every row the area left before, even one whose name carried a parameter', () => {
    const previous = [row('audit verify of 1,000,000 events (load 1.24)', 'audit-log'), row('fold display', 'sessions')];
    const fresh = [row('audit verify of 1,000 events (load 0.31)', 'audit-log')];
    expect(mergeResults(previous, ['audit-log'], fresh).map((r) => r.name)).toEqual(['fold display', 'audit verify of 1,000 events (load 0.31)']);
  });

  it('keeps the rows of the areas not run, and their values', () => {
    const previous = [row('catalog: a page', 'catalog', 7), row('search: p50', 'search', 9)];
    expect(mergeResults(previous, ['search'], [row('search: p50', 'search', 3)])).toEqual([row('catalog: a page', 'catalog', 7), row('search: p50', 'search', 3)]);
  });

  it('replaces a row written before rows carried their area only by a fresh row of the same name', () => {
    const previous = [row('http: one client'), row('ceiling: a bare node:http server')];
    const fresh = [row('http: one client', 'http-latency', 2)];
    expect(mergeResults(previous, ['http-latency'], fresh)).toEqual([row('ceiling: a bare node:http server'), row('http: one client', 'http-latency', 2)]);
  });
});
