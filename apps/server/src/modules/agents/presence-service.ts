import { AGENT_ACTIVE_WINDOW_SECONDS } from '@rota/contract';
import type { Db } from '../../db/client.js';
import {
  findAgentByTokenHash,
  markQuietOffline,
  markSeen,
  markSignedOff,
  type AgentFacts,
  type AgentIdentity,
} from './presence-repository.js';

export type { AgentFacts, AgentIdentity };

/**
 * An agent's presence as the agent protocol and the engine see it: who a token is, when it was
 * last heard from, whether it is online. The agents module owns `rota_nodes`; the engine asks
 * here rather than writing it.
 */
export class AgentPresenceService {
  constructor(private readonly db: Db) {}

  identify(tokenHash: string): Promise<AgentIdentity | undefined> {
    return findAgentByTokenHash(this.db, tokenHash);
  }

  /** Answers whether the agent came back (it was offline until now). */
  async seen(agentId: number, facts?: AgentFacts): Promise<boolean> {
    return (await markSeen(this.db, agentId, facts)) === false;
  }

  /** `tx`: the transaction that settles what the agent left, so both land together. */
  signedOff(tx: Db, agentId: number): Promise<void> {
    return markSignedOff(tx, agentId, AGENT_ACTIVE_WINDOW_SECONDS);
  }

  markQuiet(): Promise<{ id: number; client: number }[]> {
    return markQuietOffline(this.db, AGENT_ACTIVE_WINDOW_SECONDS);
  }
}
