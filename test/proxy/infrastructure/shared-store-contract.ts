/**
 * What a store shared by several proxy instances must do beyond the store contract: two stores opened on the same
 * namespace (a Redis key prefix, a PostgreSQL schema) act as two proxy processes sharing the ledger, and two on
 * different namespaces never meet. `describeSharedStoreContract(name, open)`: `open(namespace)` opens one store,
 * closed by the caller's own cleanup.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import { record } from './store-contract.js';

export function describeSharedStoreContract(name: string, open: (namespace: string) => ProxyStore): void {
  const fresh = () => `shared_${Math.random().toString(36).slice(2)}`;
  const pair = () => {
    const namespace = fresh();
    return [open(namespace), open(namespace)] as const;
  };

  describe(`${name} across instances (shared store contract)`, () => {
    it('lets exactly one of two instances hold an order, and only the holder release it', async () => {
      const [a, b] = pair();
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claim('A-1', `owner-${i}`, 10_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const owner = `owner-${claims.indexOf(true)}`;
      await b.release('A-1', 'someone-else');
      expect(await a.claim('A-1', 'late', 10_000)).toBe(false);
      await (claims.indexOf(true) % 2 ? b : a).release('A-1', owner);
      expect(await a.claim('A-1', 'late', 10_000)).toBe(true);
    });

    it('hands an announcement to one instance at a time, and never again after a commit', async () => {
      const [a, b] = pair();
      expect(await a.enqueueAnnouncement('p1', 'finished', 0)).toBe(true);
      expect(await b.enqueueAnnouncement('p1', 'finished', 0)).toBe(false);
      expect(await a.claimAnnouncement('p1', 'finished', 10_000)).toBeDefined();
      expect(await b.claimAnnouncement('p1', 'finished', 10_000)).toBeUndefined();
      await a.rescheduleAnnouncement('p1', 'finished', 0);
      expect(await b.claimAnnouncement('p1', 'finished', 10_000)).toMatchObject({ attempts: 1 });
      await b.commitAnnouncement('p1', 'finished');
      expect(await a.claimAnnouncement('p1', 'finished', 10_000)).toBeUndefined();
      expect(await a.enqueueAnnouncement('p1', 'finished', 0)).toBe(false);
      expect(await a.wasAnnounced('p1', 'finished')).toBe(true);
    });

    it('lets only one of two instances write over the same payment version, many times over', async () => {
      const [a, b] = pair();
      expect(await a.putPayment(record('p1', 1), 0)).toBe(true);
      for (let version = 1; version <= 20; version++) {
        const writes = await Promise.all([
          a.putPayment(record('p1', version + 1, `a-${version}`), version),
          b.putPayment(record('p1', version + 1, `b-${version}`), version),
        ]);
        expect(writes.filter(Boolean)).toHaveLength(1);
        expect((await b.getPayment('p1'))!.view.state).toBe(writes[0] ? `a-${version}` : `b-${version}`);
      }
    });

    it('keeps two stores on different namespaces apart', async () => {
      const [a, b] = [open(fresh()), open(fresh())];
      expect(await a.claim('A-1', 'a', 10_000)).toBe(true);
      expect(await b.claim('A-1', 'b', 10_000)).toBe(true);
      await a.putOrder({ orderId: 'A-1', payments: [] });
      expect(await b.getOrder('A-1')).toBeUndefined();
    });
  });
}
