import v8 from 'node:v8';

/**
 * V8's heap policy for a server that keeps thousands of agents' connections open
 * (`bench/agents-fleet.ts`: 20,000 agents heartbeating every 10 s).
 *
 * - Allocation-site pretenuring off: when a burst of requests waits on the database (every agent
 *   reconnecting after a restart), V8 sees response objects survive and from then on allocates
 *   every response's headers straight in the old generation, where they pile up as garbage until
 *   a full collection (the heap grew by ~12 MB/s of dead responses, RSS 600 MB to 1 GB).
 * - Heap growing factor 1.3: the old generation may grow 30 % past what survived the last full
 *   collection before the next, instead of V8's default (up to 2× and more on a large machine).
 *   The live heap with 18,000 connections is ~100 MB; with the defaults RSS reached 360 MB, with
 *   this 290–300 MB at the same CPU.
 *
 * Both read by V8 while it runs (pretenuring feedback and the limit set after each collection),
 * so setting them at boot is enough.
 */
export const HEAP_FLAGS = ['--no-allocation-site-pretenuring', '--heap-growing-percent=30'];

export function tuneHeap() {
  for (const flag of HEAP_FLAGS) v8.setFlagsFromString(flag);
}
