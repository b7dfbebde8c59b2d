import type { Db } from '../../db/client.js';
import {
  claimThrottle,
  clearThrottle,
  pruneThrottles,
  releaseThrottle,
  throttleRetryAfter,
} from './throttle-repository.js';

/**
 * How a key is barred once it has failed. `freeFailures: null` only counts (never bars). After
 * the n-th counted failure with n >= freeFailures the key is barred for
 * `min(maxSeconds, firstWaitSeconds * factor^(n - freeFailures))`.
 */
export interface ThrottlePolicy {
  freeFailures: number | null;
  firstWaitSeconds: number;
  factor: number;
  maxSeconds: number;
  /** Failures are forgotten after this long without one. */
  memorySeconds: number;
}

export type Claim = { allowed: true; failures: number } | { allowed: false; retryAfter: number };

/**
 * Throttle rows in `sign_in_throttles`, shared by every server instance.
 *
 * `claim` counts an attempt *before* its password is checked and answers whether it may go on,
 * in one INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING: the row lock that statement takes
 * serialises concurrent attempts on one key, so N simultaneous guesses cannot all read "under the
 * limit" (18 checks got through a limit of 10 when counting and checking were apart).
 * A successful attempt then `clear`s or `release`s what it claimed.
 */
export class SignInThrottle {
  constructor(private readonly db: Db) {}

  async claim(key: string, policy: ThrottlePolicy): Promise<Claim> {
    const failures = await claimThrottle(this.db, key, policy);
    if (failures !== undefined) return { allowed: true, failures };
    return { allowed: false, retryAfter: await throttleRetryAfter(this.db, key) };
  }

  /** Gives back one claimed attempt that turned out not to be a failure (bar left as it is). */
  release(key: string): Promise<void> {
    return releaseThrottle(this.db, key);
  }

  /** Forgets the key (the right password from this pair). */
  clear(key: string): Promise<void> {
    return clearThrottle(this.db, key);
  }

  /** Drops rows neither barring nor remembered any more; housekeeping, now and then. */
  prune(olderThanSeconds: number): Promise<void> {
    return pruneThrottles(this.db, olderThanSeconds);
  }
}
