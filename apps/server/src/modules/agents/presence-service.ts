import { AGENT_ACTIVE_WINDOW_SECONDS } from '@rota/contract';
import type { Db } from '../../db/client.js';
import {
  findAgentsByTokenHashes,
  markConnectionLost,
  markQuietOffline,
  markSeen,
  markSeenMany,
  markSignedOff,
  type AgentFacts,
  type AgentIdentity,
} from './presence-repository.js';

export type { AgentFacts, AgentIdentity };

/** At most this many token hashes in one identity statement. */
const IDENTIFY_BATCH = 500;

/** An agent that was offline and was heard from again. */
export interface AgentBack {
  id: number;
  client: number;
}

export interface PresenceFlush {
  /** Rows written: one per agent heard since the previous flush, by one statement. */
  written: number;
  back: AgentBack[];
  /** Agents heard again after their connection was lost (they may have stayed online). */
  reconnected: AgentBack[];
}

/** What the presence service tells as it writes: agents back online, connections back. */
export interface PresenceListener {
  back?(agents: AgentBack[]): void;
  reconnected?(agents: AgentBack[]): void;
}

/**
 * An agent's presence as the agent protocol and the engine see it: who a token is, when it was
 * last heard from, whether it is online. The agents module owns `rota_nodes`; the engine asks
 * here rather than writing it.
 *
 * Heartbeats write nothing on the request path (20,000 agents beating every 10 s): an
 * agent heard is remembered here and `flush` writes every agent heard, once a second, in one
 * statement. "Last seen" is then up to a second late, well inside the 30 s active window, and
 * an agent that comes back is announced by `onBack` after that flush.
 */
export class AgentPresenceService {
  /** Agents heard since the last flush: id → client. */
  private heardSince = new Map<number, number>();
  /** When `heardSince` began to be gathered (ms, this instance's clock). */
  private gatheredSince = Date.now();
  private running: Promise<PresenceFlush> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Token hashes waiting for `identifyAsked`, each with whoever asked. */
  private asked = new Map<
    string,
    { resolve: (agent: AgentIdentity | undefined) => void; reject: (error: unknown) => void }[]
  >();
  private identifyScheduled = false;

  constructor(
    private readonly db: Db,
    private readonly listener: PresenceListener = {},
    private readonly options: {
      flushMs?: number;
      log?: { warn(obj: object, msg: string): void };
    } = {},
  ) {}

  /**
   * Who a token (hash) is. The hashes asked for during one turn of the event loop are looked up
   * by one statement: when thousands of agents reconnect at once (a server restart), each
   * waiting for its own query kept its request in memory for seconds (the
   * server's peak memory came from that storm).
   */
  identify(tokenHash: string): Promise<AgentIdentity | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.asked.get(tokenHash);
      if (waiting) waiting.push({ resolve, reject });
      else this.asked.set(tokenHash, [{ resolve, reject }]);
      if (this.asked.size >= IDENTIFY_BATCH) this.identifyAsked();
      else if (!this.identifyScheduled) {
        this.identifyScheduled = true;
        setImmediate(() => this.identifyAsked());
      }
    });
  }

  private identifyAsked() {
    this.identifyScheduled = false;
    const asked = this.asked;
    if (asked.size === 0) return;
    this.asked = new Map();
    findAgentsByTokenHashes(this.db, [...asked.keys()]).then(
      (found) => {
        for (const [hash, waiting] of asked) for (const w of waiting) w.resolve(found.get(hash));
      },
      (error: unknown) => {
        for (const waiting of asked.values()) for (const w of waiting) w.reject(error);
      },
    );
  }

  /** A heartbeat: remembered until the next flush; no database work now. */
  heard(agentId: number, clientId: number) {
    this.heardSince.set(agentId, clientId);
  }

  /**
   * A hello (rare: the agent starts, or is back after an outage) writes at once, with what the
   * agent runs on. Answers whether the agent came back (it was offline until now) and whether
   * its lost connection came back.
   */
  async seen(
    agentId: number,
    facts?: AgentFacts,
  ): Promise<{ back: boolean; reconnected: boolean }> {
    const row = await markSeen(this.db, agentId, facts);
    return { back: row?.was_online === false, reconnected: row?.was_lost === true };
  }

  /**
   * Writes every agent heard since the last flush and announces those that came back. One at a
   * time: a call during a flush waits for it, then flushes what was heard meanwhile. If the
   * write fails, its agents wait for the next flush (unless heard again meanwhile, same thing).
   */
  async flush(): Promise<PresenceFlush> {
    while (this.running) await this.running.catch(() => undefined);
    const heard = this.heardSince;
    if (heard.size === 0) {
      // Nothing heard: the next gathering begins now, so what it hears is dated no earlier.
      this.gatheredSince = Date.now();
      return { written: 0, back: [], reconnected: [] };
    }
    const since = this.gatheredSince;
    this.heardSince = new Map();
    this.gatheredSince = Date.now();
    this.running = (async () => {
      try {
        // Agents signed off since `since` are left alone by the statement (markSeenMany).
        const result = await markSeenMany(this.db, [...heard.keys()], new Date(since));
        if (result.back.length > 0) this.listener.back?.(result.back);
        if (result.reconnected.length > 0) this.listener.reconnected?.(result.reconnected);
        return result;
      } catch (error) {
        // They wait for the next flush, which then covers their time too.
        for (const [id, client] of heard)
          if (!this.heardSince.has(id)) this.heardSince.set(id, client);
        this.gatheredSince = Math.min(this.gatheredSince, since);
        throw error;
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The flush timer (every instance runs its own: it writes only the agents it heard). */
  start() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.flush().catch((error: unknown) =>
        this.options.log?.warn({ err: error }, 'could not write the agents heard'),
      );
    }, this.options.flushMs ?? 1000);
    this.timer.unref();
  }

  /** Shutting down: no more timer, and what was heard is written before the database closes. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush().catch((error: unknown) =>
      this.options.log?.warn({ err: error }, 'could not write the agents heard'),
    );
  }

  /**
   * `tx`: the transaction that settles what the agent left, so both land together. A heartbeat
   * heard before it, here or on another instance, does not bring the agent back online: the
   * flushes leave alone an agent signed off since their heartbeats began to be gathered.
   */
  signedOff(tx: Db, agentId: number): Promise<void> {
    this.heardSince.delete(agentId);
    return markSignedOff(tx, agentId, AGENT_ACTIVE_WINDOW_SECONDS, new Date());
  }

  /** The agent's stream closed without a goodbye (`at`: this instance's now). */
  connectionLost(tx: Db, agentId: number, at: Date): Promise<boolean> {
    this.heardSince.delete(agentId);
    return markConnectionLost(tx, agentId, at);
  }

  markQuiet(): Promise<{ id: number; client: number }[]> {
    return markQuietOffline(this.db, AGENT_ACTIVE_WINDOW_SECONDS);
  }
}
