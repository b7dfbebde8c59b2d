import type {
  AgentPlatform,
  AgentReleaseManifest,
  AgentUpdateOffer,
  AgentUpdateRequest,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { invalidField, notFound } from '../../lib/errors.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import { clientAutoUpdatesAgents, setClientAutoUpdatesAgents } from '../clients/statements.js';
import type { VmService } from '../vms/service.js';
import { platformOf, updateAvailable } from './update-offer.js';
import {
  clearUpdateRequested,
  findUpdateCandidates,
  findUpdateState,
  markUpdateRequested,
  type UpdateTarget,
} from './update-repository.js';

/** What the agent-download module lends: the release as packaged now. */
export interface ShippedRelease {
  release(): Promise<AgentReleaseManifest | null>;
}

/**
 * The manifest is read again at most this often: every heartbeat of an agent with runs and every
 * empty claim asks for an offer, and a new build is still seen within seconds without a restart.
 */
const RELEASE_CACHE_MS = 5_000;
/**
 * An agent found to have nothing to make is not looked up again for this long: its heartbeats
 * and empty claims would otherwise cost a query each (a thousand agents, a hundred a second).
 * A request or the automatic switch made on this instance is seen at once; on another one, and
 * a newer build, within this time, which an update made between runs can wait.
 */
const NO_OFFER_CACHE_MS = 60_000;

/**
 * Agents updating themselves: which of them an update is available for, an administrator's
 * request (some agents, a VM's, all of the client's), the client's automatic updates, and the
 * offer an agent receives in its hello, heartbeat and empty claim answers.
 */
export class AgentUpdateService {
  private cached: { at: number; release: Promise<AgentReleaseManifest | null> } | null = null;
  /** Agent id → until when (performance.now()) it has nothing to make. */
  private readonly nothingFor = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly vms: VmService,
    private readonly shipped: ShippedRelease,
  ) {}

  /** The manifest as packaged a moment ago; null: nothing to offer. */
  release(): Promise<AgentReleaseManifest | null> {
    const now = performance.now();
    if (!this.cached || now - this.cached.at > RELEASE_CACHE_MS) {
      const release = this.shipped.release().catch(() => null);
      this.cached = { at: now, release };
    }
    return this.cached.release;
  }

  async shippedVersion(): Promise<string | null> {
    return (await this.release())?.version ?? null;
  }

  /**
   * The update this agent should make now: it was asked to, or its client updates agents on
   * their own, and a build for its platform is newer. A request that can no longer be met (the
   * agent is current, or left the packaged build) is cleared.
   */
  async offerFor(agentId: number): Promise<AgentUpdateOffer | undefined> {
    const release = await this.release();
    // Nothing packaged (a source install): nothing to offer, and no query on the hot path.
    if (!release) return undefined;
    const now = performance.now();
    if ((this.nothingFor.get(agentId) ?? 0) > now) return undefined;
    const offer = await this.lookUpOffer(agentId, release);
    if (offer) this.nothingFor.delete(agentId);
    else this.nothingFor.set(agentId, now + NO_OFFER_CACHE_MS);
    return offer;
  }

  private async lookUpOffer(
    agentId: number,
    release: AgentReleaseManifest,
  ): Promise<AgentUpdateOffer | undefined> {
    const state = await findUpdateState(this.db, agentId);
    if (!state) return undefined;
    const available = updateAvailable(state, release.version);
    const platform: AgentPlatform | null = platformOf(state);
    const file = platform ? release.files[platform] : undefined;
    if (!available || !platform || !file) {
      if (state.update_requested_at) await clearUpdateRequested(this.db, agentId);
      return undefined;
    }
    if (!state.update_requested_at && !state.auto_update) return undefined;
    return { version: release.version, platform, sha256: file.sha256, bytes: file.bytes };
  }

  /** Asks the agents the request names to update; answers how many an update is available for. */
  async request(
    scope: TenantScope,
    body: AgentUpdateRequest,
    author: AuditAuthor,
  ): Promise<number> {
    const target: UpdateTarget = body.ids
      ? { ids: [...new Set(body.ids)] }
      : body.rota_vms_id !== undefined
        ? { rota_vms_id: body.rota_vms_id }
        : { all: true };
    if ('rota_vms_id' in target && !(await this.vms.exists(scope, target.rota_vms_id))) {
      throw invalidField('rota_vms_id', 'vm_not_found');
    }
    const shipped = await this.shippedVersion();
    return this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const candidates = await findUpdateCandidates(tx, scope, target);
      // Named agents of another client answer as absent ones.
      if ('ids' in target && candidates.length < target.ids.length) throw notFound();
      const ids = candidates.filter((c) => updateAvailable(c, shipped)).map((c) => c.rota_nodes_id);
      await markUpdateRequested(tx, scope, ids);
      for (const id of ids) this.nothingFor.delete(id);
      await this.audit.write(tx, author, {
        action: 'update',
        entity: 'agent_update',
        entity_id: null,
        after: { target, version: shipped, rota_nodes_ids: ids },
      });
      return ids.length;
    });
  }

  autoUpdate(scope: TenantScope): Promise<boolean> {
    return clientAutoUpdatesAgents(this.db, scope.clientId);
  }

  async setAutoUpdate(scope: TenantScope, enabled: boolean, author: AuditAuthor): Promise<void> {
    await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const before = await clientAutoUpdatesAgents(tx, scope.clientId);
      await setClientAutoUpdatesAgents(tx, scope.clientId, enabled);
      // Which of its agents now have something to make is the next lookup's to say.
      if (enabled) this.nothingFor.clear();
      await this.audit.write(tx, author, {
        action: 'update',
        entity: 'agent_auto_update',
        entity_id: scope.clientId,
        before: { enabled: before },
        after: { enabled },
      });
    });
  }
}
