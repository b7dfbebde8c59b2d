import type { z } from 'zod';
import {
  agentClaimBatchSchema,
  agentClaimSchema,
  agentFinishSchema,
  agentHeartbeatSchema,
  type AgentStreamOperation,
  type ClaimedRun,
} from '@rota/contract';
import type { AgentIdentity, DispatchService } from '../dispatch/dispatch-service.js';

/**
 * Hands claimed runs to whoever asked, or back to the queue when nobody is there to receive
 * them: HTTP's answer (claimDelivered) and the stream's message each say how.
 */
export type Deliver = (
  take: (hangUp: AbortSignal) => Promise<ClaimedRun[]>,
) => Promise<ClaimedRun[]>;

export interface AgentCall {
  dispatch: DispatchService;
  agent: AgentIdentity;
  deliver: Deliver;
}

interface AgentOperation<S extends z.ZodType, R> {
  body: S;
  /** A retired token ("Generate new token") only finishes what its agent already holds. */
  retiredMay: boolean;
  answer(call: AgentCall, body: z.output<S>): Promise<R>;
}

const operation = <S extends z.ZodType, R>(op: AgentOperation<S, R>) => op;

/**
 * The calls an agent makes over HTTP and over its stream alike, so both answer the same:
 * the routes and the stream only authenticate, validate and carry the answer.
 */
export const agentOperations = {
  heartbeat: operation({
    body: agentHeartbeatSchema,
    retiredMay: true,
    answer: async ({ dispatch, agent }, body) => ({ data: await dispatch.heartbeat(agent, body) }),
  }),
  claim: operation({
    body: agentClaimSchema,
    retiredMay: false,
    answer: async ({ dispatch, agent, deliver }, body) => {
      const runs = await deliver((signal) =>
        dispatch.claimMany(agent, body.wait_seconds, 1, signal),
      );
      if (runs[0]) return { data: runs[0] };
      // An idle agent's claim stands for its heartbeat: it hears of an update here.
      const update = await dispatch.updateOffer(agent);
      const maintenance = dispatch.inMaintenance(agent) ? { maintenance: true } : {};
      return update ? { data: null, update, ...maintenance } : { data: null, ...maintenance };
    },
  }),
  'claim-batch': operation({
    body: agentClaimBatchSchema,
    retiredMay: false,
    answer: async ({ dispatch, agent, deliver }, body) => {
      const runs = await deliver((signal) =>
        dispatch.claimMany(agent, body.wait_seconds, body.max, signal),
      );
      return dispatch.inMaintenance(agent)
        ? { data: { runs, maintenance: true } }
        : { data: { runs } };
    },
  }),
  finish: operation({
    body: agentFinishSchema,
    retiredMay: true,
    answer: async ({ dispatch, agent, deliver }, body) => {
      const { claim, ...result } = body;
      // Older agents ask for nothing more; a retired token only finishes, it never claims.
      if (!claim || agent.retired) {
        const accepted = await dispatch.finish(agent, result);
        return { data: claim ? { accepted, runs: [] } : { accepted } };
      }
      let accepted = false;
      const runs = await deliver(async (signal) => {
        const answer = await dispatch.finishAndClaim(agent, result, claim, signal);
        accepted = answer.accepted;
        return answer.runs;
      });
      return { data: { accepted, runs } };
    },
  }),
} satisfies Record<AgentStreamOperation, AgentOperation<z.ZodType, unknown>>;
