import { AppError } from '../../lib/errors.js';
import { hashToken } from '../../lib/tokens.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import type { AgentIdentity, AgentPresenceService } from '../agents/presence-service.js';

/** How long an identity read while NOTIFY is down may be trusted. */
const UNHEARD_TTL_MS = 5000;

/**
 * Which agent a protocol token speaks for, on every call it makes (a heartbeat every 10 s,
 * claims, results). An identity lives 5 minutes: a rotated or deleted agent is dropped at once
 * on every instance (`forget`, through NOTIFY), and every identity when NOTIFY may have lost
 * something (`notifyGap`); while the LISTEN connection is down, entries live 5 s at most.
 * Unknown tokens are never cached; 50,000 entries at most (the least recently used go first).
 */
export class AgentIdentities {
  private readonly byTokenHash = new TtlCache<string, AgentIdentity>(5 * 60_000, 50_000);
  private listening = true;

  constructor(private readonly presence: AgentPresenceService) {}

  async authenticate(token: string): Promise<AgentIdentity> {
    const tokenHash = hashToken(token);
    const cached = this.byTokenHash.get(tokenHash);
    if (cached) return cached;
    const agent = await this.presence.identify(tokenHash);
    if (!agent) throw new AppError('unauthorized');
    this.byTokenHash.set(tokenHash, agent, this.listening ? undefined : UNHEARD_TTL_MS);
    return agent;
  }

  /**
   * An agent's token changed or the agent is gone, here or on another instance (NOTIFY): its
   * cached identity goes at once, so the old token stops working at the next call.
   */
  forget(agentIds: number[]) {
    const ids = new Set(agentIds);
    this.byTokenHash.deleteWhere((identity) => ids.has(identity.rota_nodes_id));
  }

  /**
   * NOTIFY's connection dropped (`listening` false) or listens again (true): a change made
   * meanwhile on another instance was never heard, so every cached identity goes.
   */
  notifyGap(listening: boolean) {
    this.listening = listening;
    this.byTokenHash.clear();
  }
}
