export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** 0.5 s doubling to 30 s: quick recovery from a blip, yet no hammering of a server that is down. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

/**
 * Exponential delays with "equal jitter" (each delay is random in [d/2, d]), so that many agents
 * that lost the server at the same moment do not all come back at the same moment.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly options: BackoffOptions = DEFAULT_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {}

  nextDelayMs(): number {
    const ceiling = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.attempt);
    if (ceiling < this.options.maxMs) this.attempt += 1;
    return ceiling / 2 + this.random() * (ceiling / 2);
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Like `sleep` but never rejects: for loops that check their signal themselves. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  await sleep(ms, signal).catch(() => undefined);
}

export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new AbortedError();
}

class AbortedError extends Error {
  constructor(message = 'aborted') {
    super(message);
    this.name = 'AbortError';
  }
}
