import { EVENTS_STREAM_PATH, type LiveEvent } from '@rota/contract';
import { untilFirstPaint } from '../../lib/first-paint';
import { endSessionAfterUnauthorized } from '../../lib/http';
import { currentLanguage, i18n } from '../../lib/i18n';
import { getToken } from '../../lib/session';
import { createSseParser, type SseMessage } from './sse-parser';

/**
 * `idle`: not started (or stopped); `connecting`: first attempt; `open`: events flow;
 * `reconnecting`: the stream dropped and a new attempt is waiting or under way; `stopped`: the
 * server refused the session (401/403), nothing more is tried until the next start.
 */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'stopped';

export type LiveConnectionOptions = {
  /** The stream's URL. */
  url?: string;
  getToken?: () => string | undefined;
  /** A 401: the session is over (the shell's popup and redirect). */
  onUnauthorized?: (message: string) => void;
  /** First reconnection delay; it doubles per failed attempt up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** With nothing received (not even a keep-alive) for this long, the stream is presumed dead. */
  idleTimeoutMs?: number;
  /** A stream that stayed open this long was healthy: the next drop starts the backoff afresh. */
  healthyAfterMs?: number;
};

export type LiveConnection = {
  /** Opens the stream for `scope` (the selected client); another scope restarts it. */
  start(scope: string): void;
  /** Closes the stream and cancels any pending reconnection. */
  stop(): void;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** Called when the stream opens again after a drop: events may have been missed meanwhile. */
  subscribeReconnect(listener: () => void): () => void;
  subscribeStatus(listener: () => void): () => void;
  getStatus(): LiveStatus;
};

function isEventStream(contentType: string | null): boolean {
  return (contentType ?? '').toLowerCase().startsWith('text/event-stream');
}

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: the default text below.
  }
  return i18n.t('http.unauthorized');
}

/** Waits `ms`, or less if `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

let parserLoad: Promise<(candidate: unknown) => LiveEvent | null> | undefined;

/**
 * The events' schema comes with the first event, not with the shell: it brings zod and the
 * execution and agent schemas, which a phone's first load does not need (loaded with
 * the stream, they made a post-paint task of ≈330 ms at 4× slowdown). A failed load is tried
 * again with the next event.
 */
function liveEventParser() {
  parserLoad ??= import('./live-event-parser').then(
    (module) => module.parseLiveEvent,
    (error: unknown) => {
      parserLoad = undefined;
      throw error;
    },
  );
  return parserLoad;
}

/**
 * One Server-Sent Events connection for the signed-in console. EventSource cannot send the
 * `Authorization` header, so the stream is read with `fetch` and parsed here. It reconnects
 * with exponential backoff (and jitter, so a restarted server is not hit by every console at
 * once), treats a silent stream as dropped, and stops for good on 401 or 403.
 */
export function createLiveConnection(options: LiveConnectionOptions = {}): LiveConnection {
  const {
    url = EVENTS_STREAM_PATH,
    getToken: tokenOf = getToken,
    onUnauthorized = endSessionAfterUnauthorized,
    initialDelayMs = 1000,
    maxDelayMs = 30_000,
    idleTimeoutMs = 75_000,
    healthyAfterMs = 60_000,
  } = options;
  const listeners = new Set<(event: LiveEvent) => void>();
  const reconnectListeners = new Set<() => void>();
  const statusListeners = new Set<() => void>();
  let status: LiveStatus = 'idle';
  let session: { scope: string; controller: AbortController } | null = null;

  function setStatus(next: LiveStatus) {
    if (next === status) return;
    status = next;
    for (const listener of [...statusListeners]) listener();
  }

  function dispatch(parseLiveEvent: (candidate: unknown) => LiveEvent | null, message: SseMessage) {
    let payload: unknown;
    try {
      payload = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!payload || typeof payload !== 'object') return;
    const candidate = { type: message.event, ...(payload as Record<string, unknown>) };
    const event = parseLiveEvent(candidate);
    if (!event) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken listener must not starve the others.
        console.error(error);
      }
    }
  }

  async function run(signal: AbortSignal) {
    let failures = 0;
    let everOpened = false;
    let lastEventId: string | undefined;
    let retryHint: number | undefined;
    while (!signal.aborted) {
      const token = tokenOf();
      if (!token) {
        setStatus('stopped');
        return;
      }
      setStatus(everOpened || failures > 0 ? 'reconnecting' : 'connecting');
      const attempt = new AbortController();
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      const abortAttempt = () => {
        attempt.abort();
        // A reader of a body not tied to the signal (a test double) would wait forever.
        reader?.cancel().catch(() => {});
      };
      signal.addEventListener('abort', abortAttempt);
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(abortAttempt, idleTimeoutMs);
      };
      let openedAt: number | undefined;
      try {
        arm();
        const headers: Record<string, string> = {
          Accept: 'text/event-stream',
          'Accept-Language': currentLanguage(),
          Authorization: `Bearer ${token}`,
        };
        if (lastEventId) headers['Last-Event-ID'] = lastEventId;
        const firstPaint = untilFirstPaint();
        if (firstPaint) await firstPaint;
        const response = await fetch(url, {
          method: 'GET',
          headers,
          cache: 'no-store',
          credentials: 'same-origin',
          signal: attempt.signal,
        });
        if (response.status === 401) {
          const message = await messageOf(response);
          if (!signal.aborted) {
            setStatus('stopped');
            onUnauthorized(message);
          }
          return;
        }
        if (response.status === 403) {
          // Forced password change, or no access to the stream: retrying will not help.
          if (!signal.aborted) setStatus('stopped');
          return;
        }
        if (
          !response.ok ||
          !response.body ||
          !isEventStream(response.headers.get('Content-Type'))
        ) {
          throw new Error(`live stream answered ${response.status}`);
        }
        reader = response.body.getReader();
        if (signal.aborted) return;
        openedAt = Date.now();
        if (everOpened) for (const listener of [...reconnectListeners]) listener();
        everOpened = true;
        setStatus('open');
        const decoder = new TextDecoder();
        // In order, and none after the attempt ends (stop, another client); a schema that cannot
        // load ends the attempt like a dropped stream, and the reconnection refetches what was
        // missed.
        let dispatched = Promise.resolve();
        const sse = createSseParser((message) => {
          dispatched = dispatched
            .then(async () => {
              const parse = await liveEventParser();
              if (!attempt.signal.aborted) dispatch(parse, message);
            })
            .catch(abortAttempt);
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          arm();
          sse.push(decoder.decode(value, { stream: true }));
          lastEventId = sse.lastEventId ?? lastEventId;
          retryHint = sse.retry ?? retryHint;
        }
      } catch {
        // Network failure, a refused answer, the watchdog or stop(): decided below.
      } finally {
        clearTimeout(watchdog);
        signal.removeEventListener('abort', abortAttempt);
      }
      if (signal.aborted) return;
      if (openedAt !== undefined && Date.now() - openedAt >= healthyAfterMs) failures = 0;
      failures += 1;
      setStatus('reconnecting');
      const base = Math.max(initialDelayMs, retryHint ?? 0);
      const delay = Math.min(maxDelayMs, base * 2 ** (failures - 1));
      await sleep(delay * (0.8 + Math.random() * 0.4), signal);
    }
  }

  function stop() {
    session?.controller.abort();
    session = null;
    setStatus('idle');
  }

  function start(scope: string) {
    if (session?.scope === scope) return;
    stop();
    const controller = new AbortController();
    session = { scope, controller };
    void run(controller.signal);
  }

  return {
    start,
    stop,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    subscribeStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    getStatus: () => status,
  };
}

/** The console's one connection, opened by the shell (useLiveUpdates) while a user is signed in. */
export const liveConnection = createLiveConnection();
