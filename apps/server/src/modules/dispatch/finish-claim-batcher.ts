import { holdConnection, type Db, type HeldConnection } from '../../db/client.js';
import {
  FINISH_CLAIM_BATCH_MAX,
  finishAndClaimEach,
  finishAndClaimRuns,
  type FinishClaimAsk,
} from '../executions/finish-claim-statements.js';

type Answer = Awaited<ReturnType<typeof finishAndClaimRuns>>;
/** Where a failed group's error goes (the app's logger): its results are then written alone. */
export interface BatcherLog {
  warn(obj: object, msg: string): void;
}
interface Waiting extends FinishClaimAsk {
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/**
 * Results that ask for one next run, written by one statement per group: under load,
 * agents finishing at once share a round trip, a plan's start-up and a commit instead of paying
 * one each. One group statement is in flight at a time; the results that arrive meanwhile wait
 * for it and go together in the next (up to 16 a statement), which leaves before the group
 * before it is answered. With statements side by side on several connections, each claim's scan
 * walked past the runs the others had locked and not yet committed, and PostgreSQL spent more
 * than twice the CPU per run (bench/scale.ts: 0.47–0.57 ms against 0.20–0.23 with one in
 * flight). A lone result goes at once, with no wait added. Each agent gets the answer its own
 * statement would have given; a group that fails is tried again one result at a time, so one
 * agent's bad result never fails the others.
 */
export class FinishClaimBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private writing = false;
  /** The connection group statements go to while results keep coming (see `lane`). */
  private held: HeldConnection | null = null;

  constructor(
    private readonly db: Db,
    private readonly leaseSeconds: number,
    private readonly log?: BatcherLog,
  ) {}

  finishAndClaim(ask: FinishClaimAsk): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...ask, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.writeNext();
        });
      }
    });
  }

  /** Writes the next group, unless one is being written (it calls again when done). */
  private writeNext() {
    if (this.writing || this.waiting.length === 0) return;
    // Distinct executions per statement: a repeated result waits for the next one, where it
    // finds its attempt ended, as it would have sent alone.
    const group: Waiting[] = [];
    const executions = new Set<number>();
    const later: Waiting[] = [];
    for (const ask of this.waiting) {
      if (group.length < FINISH_CLAIM_BATCH_MAX && !executions.has(ask.result.execution_id)) {
        group.push(ask);
        executions.add(ask.result.execution_id);
      } else later.push(ask);
    }
    this.waiting = later;
    this.writing = true;
    void this.write(group).then(
      (answer) => this.written(answer),
      (error: unknown) => this.written(() => group.forEach((ask) => ask.reject(error))),
    );
  }

  /**
   * The next group's statement leaves before this group's answers: answering a group of agents
   * (serializing each answer and writing it to its socket) takes the server a while, and
   * PostgreSQL would wait idle for it. The answers go out in the check phase, while PostgreSQL
   * runs the next statement.
   */
  private written(answer: () => void) {
    this.writing = false;
    this.writeNext();
    if (!this.writing) this.releaseLane();
    setImmediate(answer);
  }

  /**
   * Group statements go to one connection, held while results keep coming and given back when
   * none wait (so a stopping server's pool can end): each group size's statement is prepared and
   * planned on it once, where on the pool's connections in turn each paid its first runs' plans
   * (bench/scale.ts, 5,000 runs: PostgreSQL 0.22–0.28 ms a run against 0.26–0.37).
   */
  private async lane(): Promise<Db> {
    this.held ??= (await holdConnection(this.db)) ?? { db: this.db, release: () => undefined };
    return this.held.db;
  }

  private releaseLane(broken?: Error) {
    const held = this.held;
    this.held = null;
    held?.release(broken);
  }

  /** Writes a group; resolves to what answers its agents, to be called once the next has left. */
  private async write(group: Waiting[]): Promise<() => void> {
    if (group.length === 1) return this.writeOne(group[0]!);
    let answers: Answer[];
    try {
      answers = await finishAndClaimEach(await this.lane(), group, this.leaseSeconds);
    } catch (error) {
      this.log?.warn(
        { err: error, results: group.length },
        'a group of results failed; writing them one at a time',
      );
      // The connection may be what failed: a new one serves the next group.
      this.releaseLane(error instanceof Error ? error : new Error(String(error)));
      // Nothing of the group was written (its results are one statement): each goes alone.
      const settles = await Promise.all(group.map((ask) => this.writeOne(ask)));
      return () => settles.forEach((settle) => settle());
    }
    return () => group.forEach((ask, i) => ask.resolve(answers[i]!));
  }

  private async writeOne(ask: Waiting): Promise<() => void> {
    try {
      const answer = await finishAndClaimRuns(
        this.db,
        ask.agent,
        ask.result,
        [ask.tokenHash],
        this.leaseSeconds,
      );
      return () => ask.resolve(answer);
    } catch (error) {
      return () => ask.reject(error);
    }
  }
}
