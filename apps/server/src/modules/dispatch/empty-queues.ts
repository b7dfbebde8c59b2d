/**
 * Clients this instance knows to have no queued run, for a short while. Idle agents
 * claim every heartbeat interval (10 s), so 20,000 of them sent 2,000 claim statements a second
 * that found nothing; an idle claim now skips its statement while its client's queue is known
 * empty, and waits for a wake-up as before.
 *
 * Known empty means: a check found no queued run of the client (any VM, any time), no run of
 * the client was announced queued (here or, through NOTIFY, elsewhere) since that check began,
 * and it is less than `ttlMs` old. Every way a run becomes queued announces it; the age limit
 * bounds how late a run is found if one ever did not, or if a NOTIFY is lost while the LISTEN
 * connection is down (then nothing is known empty at all). Skipping a claim can only delay a
 * run, never hand it out twice.
 */
export class EmptyQueues {
  private readonly emptyUntil = new Map<number, number>();
  private readonly checkedAt = new Map<number, number>();
  /**
   * Announcements are numbered; a check is void when its client's last one, or the last event
   * that voids every check (NOTIFY lost or back, forgetting clients), is numbered after the
   * check began. Another client's run leaves it standing: on a busy platform some client queues
   * a run every moment, and a check voided by any of them would seldom hold.
   */
  private sequence = 0;
  private readonly announcedAt = new Map<number, number>();
  private allVoidedAt = 0;
  private trusted = true;

  constructor(
    private readonly ttlMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  isEmpty(clientId: number): boolean {
    const until = this.emptyUntil.get(clientId);
    if (until === undefined) return false;
    if (this.trusted && until > this.now()) return true;
    this.emptyUntil.delete(clientId);
    return false;
  }

  /**
   * After a claim found nothing: looks whether the client has any queued run at all, at most
   * once per `ttlMs` per client (a client with runs no agent may take yet would otherwise pay
   * a second statement on every claim).
   */
  async checkAfterEmptyClaim(clientId: number, hasQueued: () => Promise<boolean>): Promise<void> {
    if (!this.trusted) return;
    const now = this.now();
    const last = this.checkedAt.get(clientId);
    if (last !== undefined && now - last < this.ttlMs) return;
    this.checkedAt.set(clientId, now);
    if (this.checkedAt.size > 10_000) this.checkedAt.clear();
    const began = this.sequence;
    // A failed look knows nothing: the claims go on asking the database.
    if (await hasQueued().catch(() => true)) return;
    const voided = Math.max(this.allVoidedAt, this.announcedAt.get(clientId) ?? 0) > began;
    if (this.trusted && !voided) this.emptyUntil.set(clientId, this.now() + this.ttlMs);
  }

  /** A run of the client was queued. */
  queued(clientId: number) {
    if (this.announcedAt.size >= 10_000) {
      // Forgotten announcements could no longer void the checks in flight: void them all.
      this.announcedAt.clear();
      this.allVoidedAt = ++this.sequence;
    }
    this.announcedAt.set(clientId, ++this.sequence);
    this.emptyUntil.delete(clientId);
  }

  /** NOTIFY's connection dropped (false) or listens again (true). */
  listening(listening: boolean) {
    this.trusted = listening;
    this.allVoidedAt = ++this.sequence;
    this.emptyUntil.clear();
  }
}
