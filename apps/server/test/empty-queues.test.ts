import { describe, expect, it } from 'vitest';
import { EmptyQueues } from '../src/modules/dispatch/empty-queues.js';

/** The idle claim's shortcut: when a client's queue may be taken for empty. */
describe('EmptyQueues', () => {
  function clock() {
    let now = 1_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  }

  it('knows a queue empty after a check found no queued run, for ttlMs only', async () => {
    const c = clock();
    const queues = new EmptyQueues(1000, c.now);
    expect(queues.isEmpty(7)).toBe(false);
    await queues.checkAfterEmptyClaim(7, async () => false);
    expect(queues.isEmpty(7)).toBe(true);
    expect(queues.isEmpty(8)).toBe(false);
    c.advance(999);
    expect(queues.isEmpty(7)).toBe(true);
    c.advance(1);
    expect(queues.isEmpty(7)).toBe(false);
  });

  it('does not when the check finds a queued run, or fails', async () => {
    const queues = new EmptyQueues(1000, clock().now);
    await queues.checkAfterEmptyClaim(7, async () => true);
    expect(queues.isEmpty(7)).toBe(false);
    await queues.checkAfterEmptyClaim(8, () => Promise.reject(new Error('connection lost')));
    expect(queues.isEmpty(8)).toBe(false);
  });

  it('forgets at once when a run of that client is announced', async () => {
    const queues = new EmptyQueues(1000, clock().now);
    await queues.checkAfterEmptyClaim(7, async () => false);
    await queues.checkAfterEmptyClaim(8, async () => false);
    queues.queued(7);
    expect(queues.isEmpty(7)).toBe(false);
    expect(queues.isEmpty(8)).toBe(true);
  });

  it('voids a check during which a run of its client was announced (its snapshot may predate the run)', async () => {
    const queues = new EmptyQueues(1000, clock().now);
    await queues.checkAfterEmptyClaim(7, async () => {
      queues.queued(7);
      return false;
    });
    expect(queues.isEmpty(7)).toBe(false);
  });

  it("keeps a check during which only other clients' runs were announced", async () => {
    const queues = new EmptyQueues(1000, clock().now);
    queues.queued(7);
    await queues.checkAfterEmptyClaim(7, async () => {
      queues.queued(9);
      queues.queued(10);
      return false;
    });
    expect(queues.isEmpty(7)).toBe(true);
    expect(queues.isEmpty(9)).toBe(false);
  });

  it('voids every check in flight when it forgets whose runs were announced', async () => {
    const queues = new EmptyQueues(1000, clock().now);
    await queues.checkAfterEmptyClaim(7, async () => {
      // 7's run, then 10,000 other clients' runs: 7's announcement is forgotten, its check void.
      queues.queued(7);
      for (let client = 100; client < 10_101; client += 1) queues.queued(client);
      return false;
    });
    expect(queues.isEmpty(7)).toBe(false);
    await queues.checkAfterEmptyClaim(8, async () => false);
    expect(queues.isEmpty(8)).toBe(true);
  });

  it('looks at most once per ttlMs per client', async () => {
    const c = clock();
    const queues = new EmptyQueues(1000, c.now);
    let looks = 0;
    const look = async () => {
      looks += 1;
      return true;
    };
    await queues.checkAfterEmptyClaim(7, look);
    await queues.checkAfterEmptyClaim(7, look);
    await queues.checkAfterEmptyClaim(8, look);
    expect(looks).toBe(2);
    c.advance(1000);
    await queues.checkAfterEmptyClaim(7, look);
    expect(looks).toBe(3);
  });

  it('knows nothing while NOTIFY is not heard, nor what it knew before the gap', async () => {
    const queues = new EmptyQueues(1000, clock().now);
    await queues.checkAfterEmptyClaim(7, async () => false);
    queues.listening(false);
    expect(queues.isEmpty(7)).toBe(false);
    await queues.checkAfterEmptyClaim(8, async () => false);
    expect(queues.isEmpty(8)).toBe(false);
    queues.listening(true);
    expect(queues.isEmpty(7)).toBe(false);
  });
});
