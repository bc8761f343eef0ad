import { describe, expect, it } from 'vitest';
import { isLedgerError } from '@session-ledger/core';
import { openEventStoreDbStore, toConnectionString } from '@session-ledger/store-eventstoredb';

describe('EventStoreDB store URLs', () => {
  it('passes esdb:// and esdb+discover:// through, with their TLS and client options', () => {
    expect(toConnectionString('esdb://admin:changeit@db1:2113,db2:2113?tls=true&tlsCAFile=/etc/ca.crt')).toBe(
      'esdb://admin:changeit@db1:2113,db2:2113?tls=true&tlsCAFile=/etc/ca.crt',
    );
    expect(toConnectionString('esdb+discover://cluster.example:2113?tls=false')).toBe('esdb+discover://cluster.example:2113?tls=false');
  });

  it('maps kurrentdb:// and kurrentdb+discover:// onto the client esdb schemes', () => {
    expect(toConnectionString('kurrentdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
    expect(toConnectionString('KurrentDB+discover://c:2113')).toBe('esdb+discover://c:2113');
  });

  it.each(['http://localhost:2113', 'esdb://', 'sqlite:./x.sqlite', 'esdb:localhost'])('refuses %s as invalid_input', (url) => {
    let caught: unknown;
    try {
      toConnectionString(url);
    } catch (error) {
      caught = error;
    }
    expect(isLedgerError(caught, 'invalid_input')).toBe(true);
  });

  it('refuses a URL the client cannot parse when the store is opened, as invalid_input', () => {
    expect(() => openEventStoreDbStore('esdb://host:notaport?tls=false')).toThrow(expect.objectContaining({ type: 'invalid_input' }));
  });

  it('keeps passwords out of the store name', async () => {
    const store = openEventStoreDbStore('esdb://admin:secret@127.0.0.1:1?tls=false');
    expect(store.name).not.toContain('secret');
    await store.close();
  });
});
