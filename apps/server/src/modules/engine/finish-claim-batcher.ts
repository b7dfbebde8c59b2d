import type { Db } from '../../db/client.js';
import {
  FINISH_CLAIM_BATCH_MAX,
  finishAndClaimEach,
  finishAndClaimRuns,
  type FinishClaimAsk,
} from './execution-repository.js';

type Answer = Awaited<ReturnType<typeof finishAndClaimRuns>>;
interface Waiting extends FinishClaimAsk {
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/**
 * Results that ask for one next run, gathered over one turn of the event loop and written by
 * one statement per group (issue 18): under load, agents finishing at once share a round trip,
 * a plan's start-up and a commit instead of paying one each. Each agent gets the answer its own
 * statement would have given; a lone result goes alone, with no wait added. A group that fails
 * is tried again one result at a time, so one agent's bad result never fails the others.
 */
export class FinishClaimBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly leaseSeconds: number,
  ) {}

  finishAndClaim(ask: FinishClaimAsk): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...ask, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush() {
    this.scheduled = false;
    let rest = this.waiting;
    this.waiting = [];
    while (rest.length > 0) {
      // Distinct executions per statement: a repeated result waits for the next one, where it
      // finds its attempt ended, as it would have sent alone.
      const group: Waiting[] = [];
      const executions = new Set<number>();
      const later: Waiting[] = [];
      for (const ask of rest) {
        if (group.length < FINISH_CLAIM_BATCH_MAX && !executions.has(ask.result.execution_id)) {
          group.push(ask);
          executions.add(ask.result.execution_id);
        } else later.push(ask);
      }
      void this.write(group);
      rest = later;
    }
  }

  private async write(group: Waiting[]) {
    if (group.length === 1) return this.writeOne(group[0]!);
    let answers: Answer[];
    try {
      answers = await finishAndClaimEach(this.db, group, this.leaseSeconds);
    } catch {
      // Nothing of the group was written (one statement): each goes on its own.
      await Promise.all(group.map((ask) => this.writeOne(ask)));
      return;
    }
    group.forEach((ask, i) => ask.resolve(answers[i]!));
  }

  private async writeOne(ask: Waiting) {
    try {
      ask.resolve(
        await finishAndClaimRuns(
          this.db,
          ask.agent,
          ask.result,
          [ask.tokenHash],
          this.leaseSeconds,
        ),
      );
    } catch (error) {
      ask.reject(error);
    }
  }
}
