/**
 * The agent's claim slots held between runs while it updates itself: a slot that finished its
 * run (and reported it) waits at the top of its loop until the pause ends; the update goes on
 * once every slot waits there, which is when no robot runs and nothing is left to report.
 */
export class ClaimPause {
  private current: { resume: () => void; resumed: Promise<void> } | null = null;
  private held = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  get active(): boolean {
    return this.current !== null;
  }

  begin(): void {
    if (this.current) return;
    let resume = () => {};
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    this.current = { resume, resumed };
  }

  /** The slots claim again (the update failed), or leave their loops (the agent stops). */
  end(): void {
    const current = this.current;
    this.current = null;
    current?.resume();
  }

  /** Called by a slot while the pause is active: returns when it ends. */
  async hold(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.held += 1;
    if (this.held >= this.slots) for (const resolve of this.waiters.splice(0)) resolve();
    try {
      await current.resumed;
    } finally {
      this.held -= 1;
    }
  }

  /** Every slot is held, or `signal` aborted. */
  allHeld(signal: AbortSignal): Promise<void> {
    if (this.held >= this.slots || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}
