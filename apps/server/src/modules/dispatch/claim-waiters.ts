import { carriesAll } from '@rota/contract';

/** A wake-up sent when work is queued: the client, the VMs it may run on (null: any), how many. */
export interface WorkSignal {
  c: number;
  v: number[] | null;
  n: number;
  /** The labels the runs need; absent: none, any agent may take them. */
  l?: string[];
  /** The instance that sent it. */
  i?: string;
}

/** Who waits for work: a claim of an agent on VM `vmId`; `wake` runs when work may be there. */
export interface Waiter {
  readonly vmId: number;
  /** What its agent carries: a run needing other labels does not wake it. */
  readonly labels?: readonly string[];
  woken: boolean;
  wake(): void;
}

/**
 * Agents long-polling `claim` on this instance, by client. A signal wakes as many waiters as
 * runs were queued (not all of them: a thousand idle agents must not stampede the database for
 * one execution). A waiter is registered before its claim query runs, so a signal arriving
 * during the query is not lost.
 */
export class ClaimWaiters {
  private readonly byClient = new Map<number, Set<Waiter>>();
  private isClosed = false;
  private readonly sizeWatchers = new Set<{ test: (size: number) => boolean; done: () => void }>();

  register(clientId: number, vmId: number, labels: readonly string[] = []) {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waiter: Waiter = {
      vmId,
      labels,
      woken: this.isClosed,
      wake: () => {
        waiter.woken = true;
        wake();
      },
    };
    if (this.isClosed) waiter.wake();
    this.add(clientId, waiter);
    return {
      get woken() {
        return waiter.woken;
      },
      wait: woken,
      wake: waiter.wake,
      release: () => this.leave(clientId, waiter),
    };
  }

  /**
   * A waiter that is an object of the caller's, woken by a call instead of a promise: a long
   * poll parked between attempts then holds no suspended async function and no closure (the
   * agent stream's: ≈4 KB of heap less an idle agent). A closed instance wakes it at
   * once. It stays until `leave`.
   */
  join(clientId: number, waiter: Waiter): void {
    this.add(clientId, waiter);
    if (this.isClosed) waiter.wake();
  }

  leave(clientId: number, waiter: Waiter): void {
    const set = this.byClient.get(clientId);
    if (!set) return;
    set.delete(waiter);
    if (set.size === 0) this.byClient.delete(clientId);
    this.sizeChanged();
  }

  private add(clientId: number, waiter: Waiter): void {
    let set = this.byClient.get(clientId);
    if (!set) {
      set = new Set();
      this.byClient.set(clientId, set);
    }
    set.add(waiter);
    this.sizeChanged();
  }

  /** Resolves once the number of waiting long polls passes `test`: waited on, never polled. */
  whenSize(test: (size: number) => boolean): Promise<void> {
    if (test(this.size)) return Promise.resolve();
    return new Promise((done) => this.sizeWatchers.add({ test, done }));
  }

  private sizeChanged(): void {
    if (this.sizeWatchers.size === 0) return;
    const size = this.size;
    for (const watcher of this.sizeWatchers) {
      if (!watcher.test(size)) continue;
      this.sizeWatchers.delete(watcher);
      watcher.done();
    }
  }

  signal(work: WorkSignal) {
    const set = this.byClient.get(work.c);
    if (!set) return;
    let left = work.n;
    for (const waiter of set) {
      if (left <= 0) break;
      if (waiter.woken) continue;
      if (work.v && !work.v.includes(waiter.vmId)) continue;
      if (work.l && !carriesAll(waiter.labels ?? [], work.l)) continue;
      waiter.wake();
      left -= 1;
    }
  }

  /** Every waiter claims again now (a maintenance window ended); the instance stays open. */
  wakeAll() {
    for (const set of this.byClient.values()) for (const waiter of set) waiter.wake();
  }

  /** Ends every long poll (shutdown): agents get "no work" and come back to another instance. */
  closeAll() {
    this.isClosed = true;
    for (const set of this.byClient.values()) for (const waiter of set) waiter.wake();
  }

  /** Shutting down: no new long poll may wait. */
  get closed() {
    return this.isClosed;
  }

  get size() {
    let n = 0;
    for (const set of this.byClient.values()) n += set.size;
    return n;
  }
}
