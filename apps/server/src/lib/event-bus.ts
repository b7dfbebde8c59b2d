import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Wake-ups and live events between server instances: PostgreSQL `NOTIFY` delivers to every
 * instance listening on the same database, PGlite to its own process. Payloads
 * are small JSON objects (NOTIFY caps them under 8,000 bytes): they say what changed.
 */
export interface EventBus {
  /** `payload` is sent as it is when a string (already JSON), else as JSON. */
  publish(channel: string, payload: object | string): Promise<void>;
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
  /**
   * Notifications may have been lost: the listening connection dropped (`listening` false) or
   * came back and listens again (`listening` true). Whoever caches what NOTIFY invalidates
   * drops its cache on both. PGlite never loses one: the hook never fires there.
   */
  onGap(hook: (listening: boolean) => void): () => void;
  close(): Promise<void>;
}

type Listener = (payload: unknown) => void;

const asJson = (payload: object | string) =>
  typeof payload === 'string' ? payload : JSON.stringify(payload);

/** Fans one notification out to the listeners of its channel. */
class Listeners {
  private readonly byChannel = new Map<string, Set<Listener>>();

  add(channel: string, listener: Listener): { first: boolean; remove: () => boolean } {
    let set = this.byChannel.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    set.add(listener);
    return {
      first,
      remove: () => {
        set.delete(listener);
        if (set.size > 0) return false;
        this.byChannel.delete(channel);
        return true;
      },
    };
  }

  deliver(channel: string, raw: string | undefined) {
    const set = this.byChannel.get(channel);
    if (!set || raw === undefined) return;
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      return;
    }
    for (const listener of set) listener(payload);
  }

  channels() {
    return [...this.byChannel.keys()];
  }
}

const quoteChannel = (channel: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  return `"${channel}"`;
};

export function pgliteEventBus(pglite: PGlite): EventBus {
  const listeners = new Listeners();
  const unlisten = new Map<string, Promise<() => Promise<void>>>();
  return {
    async publish(channel, payload) {
      await pglite.query('select pg_notify($1, $2)', [channel, asJson(payload)]);
    },
    subscribe(channel, listener) {
      const entry = listeners.add(channel, listener);
      if (entry.first) {
        unlisten.set(
          channel,
          pglite.listen(channel, (raw) => listeners.deliver(channel, raw)),
        );
      }
      return () => {
        if (!entry.remove()) return;
        const pending = unlisten.get(channel);
        unlisten.delete(channel);
        void pending?.then((stop) => stop()).catch(() => undefined);
      };
    },
    onGap() {
      return () => {};
    },
    async close() {
      const pending = [...unlisten.values()];
      unlisten.clear();
      await Promise.all(pending.map((p) => p.then((stop) => stop()).catch(() => undefined)));
    },
  };
}

/**
 * One dedicated connection LISTENs for this instance (a pooled one would be handed to other
 * queries); it reconnects after a drop and listens again to every channel in use.
 */
export function postgresEventBus(pool: pg.Pool, connectionString: string): EventBus {
  const listeners = new Listeners();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let everListened = false;
  const gapHooks = new Set<(listening: boolean) => void>();
  const gap = (listening: boolean) => {
    for (const hook of gapHooks) hook(listening);
  };
  // Subscriptions made at once (every module at boot) would send LISTENs while one still runs on
  // the client, which node-postgres deprecates (pg 9 refuses it): one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = (c: pg.Client, text: string) => {
    const done = queue.then(() => c.query(text));
    queue = done.catch(() => undefined);
    return done;
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    if (connecting) return connecting;
    connecting = (async () => {
      const next = new pg.Client({ connectionString });
      next.on('notification', (message) => listeners.deliver(message.channel, message.payload));
      next.on('error', () => {
        // The 'end' handler below reconnects; without this listener the error would crash.
      });
      next.on('end', () => {
        if (client === next) client = null;
        if (!closed) gap(false);
        if (!closed && listeners.channels().length > 0) scheduleReconnect();
      });
      await next.connect();
      for (const channel of listeners.channels()) {
        await next.query(`listen ${quoteChannel(channel)}`);
      }
      client = next;
      // Back after a drop: what was sent meanwhile never arrived.
      if (everListened) gap(true);
      everListened = true;
      return next;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const scheduleReconnect = () => {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch(() => scheduleReconnect());
    }, 1000);
    retryTimer.unref();
  };

  return {
    async publish(channel, payload) {
      // Named: each connection parses it once (it runs several times per execution).
      await pool.query({
        name: 'rota_notify',
        text: 'select pg_notify($1, $2)',
        values: [channel, asJson(payload)],
      });
    },
    subscribe(channel, listener) {
      const entry = listeners.add(channel, listener);
      if (entry.first) {
        connect()
          .then((c) => serially(c, `listen ${quoteChannel(channel)}`))
          .catch(() => scheduleReconnect());
      }
      return () => {
        if (entry.remove() && client) {
          serially(client, `unlisten ${quoteChannel(channel)}`).catch(() => undefined);
        }
      };
    },
    onGap(hook) {
      gapHooks.add(hook);
      return () => gapHooks.delete(hook);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client ?? (connecting ? await connecting.catch(() => null) : null);
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
