import {
  hasPermissions,
  MAINTENANCE_STOP_GRACE_SECONDS,
  type MaintenanceStart,
  type MaintenanceTarget,
  type MaintenanceWindow,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, forbidden } from '../../lib/errors.js';
import type { EventBus } from '../../lib/event-bus.js';
import { assertPlatformAdmin } from '../../lib/platform-admin.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { Actor } from '../../http/types.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { RunControl } from '../dispatch/run-control.js';
import { processingRunsIn } from '../executions/run-statements.js';
import type { VmService } from '../vms/service.js';
import type { MaintenanceGate } from './gate.js';
import {
  activeWindows,
  activeWindowsSeenBy,
  endWindow,
  insertWindow,
  lockActiveWindow,
  recordClusterSkips,
  skipsOf,
  type WindowRow,
} from './repository.js';

/** Every instance hears a start or an end here and reads the active windows again. */
export const MAINTENANCE_CHANNEL = 'rota_maintenance';

const alreadyActive = () =>
  new AppError('conflict', [{ field: 'scope', message: 'maintenance_already_active' }]);
const notActive = () =>
  new AppError('not_found', [{ field: 'scope', message: 'maintenance_not_active' }]);

/**
 * Maintenance windows: a platform administrator's over the whole cluster, or an agent
 * administrator's over one VM of their client. The rows are the truth; each instance's gate
 * mirrors them for the claim path and hears every change through NOTIFY.
 */
export class MaintenanceService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly vms: VmService,
    private readonly runControl: RunControl,
    private readonly events: EventBus,
    private readonly gate: MaintenanceGate,
    private readonly clock: Clock,
  ) {}

  /** Reads the active windows into the gate; at start, on NOTIFY, after a gap. */
  async refresh(): Promise<void> {
    this.gate.set(await activeWindows(this.db));
  }

  /** Subscribes to starts and ends of every instance; the returned function unsubscribes. */
  listen(onError: (error: unknown) => void): () => void {
    const refresh = () => void this.refresh().catch(onError);
    const stops = [this.events.subscribe(MAINTENANCE_CHANNEL, refresh), this.events.onGap(refresh)];
    return () => stops.forEach((stop) => stop());
  }

  async start(
    actor: Actor,
    author: AuditAuthor,
    body: MaintenanceStart,
  ): Promise<MaintenanceWindow> {
    const target = await this.authorize(actor, body);
    const row = await this.db
      .transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const inserted = await insertWindow(tx, {
          scope: body.scope,
          rota_clients_id: target.clientId,
          rota_vms_id: target.vmId,
          mode: body.mode,
          message: body.message,
          started_by_users_id: actor.user.users_id,
          started_by_name: `${actor.user.name} ${actor.user.last_name}`.trim(),
          started_at: this.clock.now(),
        });
        await this.audit.write(tx, author, {
          action: 'maintenance_start',
          entity: 'maintenance',
          entity_id: inserted.rota_maintenance_windows_id,
          clientId: target.clientId,
          after: inserted,
        });
        return inserted;
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? alreadyActive() : error;
      });
    await this.announce();
    if (body.mode !== 'drain') await this.stopRuns(row, author);
    return {
      ...windowOf(row, target.vmName),
      skipped: [],
    };
  }

  async end(actor: Actor, author: AuditAuthor, body: MaintenanceTarget): Promise<void> {
    const target = await this.authorize(actor, body);
    await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await lockActiveWindow(tx, target.vmId);
      if (!row) throw notActive();
      await endWindow(tx, row.rota_maintenance_windows_id, actor.user.users_id, this.clock.now());
      await this.audit.write(tx, author, {
        action: 'maintenance_end',
        entity: 'maintenance',
        entity_id: row.rota_maintenance_windows_id,
        clientId: target.clientId,
        before: row,
      });
    });
    await this.announce();
  }

  /** The active windows the caller's client lives under, with the schedulings they skipped. */
  async show(scope: TenantScope): Promise<MaintenanceWindow[]> {
    const windows = await activeWindowsSeenBy(this.db, scope);
    if (windows.length === 0) return [];
    const skips = await skipsOf(
      this.db,
      scope,
      windows.map((w) => w.rota_maintenance_windows_id),
    );
    return windows.map((w) => ({
      ...w,
      scope: w.scope as MaintenanceWindow['scope'],
      mode: w.mode as MaintenanceWindow['mode'],
      started_at: w.started_at.toISOString(),
      skipped: skips
        .filter((s) => s.rota_maintenance_windows_id === w.rota_maintenance_windows_id)
        .map((s) => ({
          rota_schedulings_id: s.rota_schedulings_id,
          scheduling_name: s.scheduling_name,
          due_at: s.due_at.toISOString(),
          skipped_at: s.skipped_at.toISOString(),
        })),
    }));
  }

  /**
   * The scheduler's turn while the cluster is in maintenance: due schedulings are listed as
   * skipped and left due, so their missed-run policy decides when the window ends. Answers
   * whether the cluster is in maintenance (the scheduler then queues nothing).
   */
  async holdDueSchedulings(now: Date): Promise<boolean> {
    if (!this.gate.clusterActive) return false;
    await recordClusterSkips(this.db, now);
    return true;
  }

  private async authorize(actor: Actor, target: MaintenanceTarget) {
    if (target.scope === 'cluster') {
      assertPlatformAdmin(actor);
      return { clientId: null, vmId: null, vmName: null };
    }
    if (!actor.scope) throw forbidden();
    if (!hasPermissions(actor.permissions, ['AGENTES.UPDATE'])) throw forbidden();
    const vm = await this.vms.show(actor.scope, target.rota_vms_id!);
    return { clientId: actor.scope.clientId, vmId: vm.rota_vms_id, vmName: vm.name };
  }

  /** Tells this instance at once and the others through NOTIFY. */
  private async announce(): Promise<void> {
    await this.refresh();
    await this.events.publish(MAINTENANCE_CHANNEL, {});
  }

  /** `stop` and `kill` windows: the operator's stop (with a grace) or kill of each run in scope. */
  private async stopRuns(row: WindowRow, author: AuditAuthor): Promise<void> {
    const where =
      row.rota_vms_id === null || row.rota_clients_id === null
        ? null
        : { clientId: row.rota_clients_id, vmId: row.rota_vms_id };
    const grace = row.mode === 'stop' ? MAINTENANCE_STOP_GRACE_SECONDS : 0;
    for (const run of await processingRunsIn(this.db, where)) {
      await this.runControl
        .cancel(
          run.client,
          run.id,
          (tx, outcome) =>
            this.audit.write(tx, author, {
              action: grace > 0 ? 'stop' : 'cancel',
              entity: 'execution',
              entity_id: run.id,
              clientId: run.client,
              after: { maintenance: row.rota_maintenance_windows_id, mode: row.mode, outcome },
            }),
          grace,
        )
        // A run that ended meanwhile has nothing left to stop.
        .catch((error: unknown) => {
          if (!(error instanceof AppError)) throw error;
        });
    }
  }
}

function windowOf(row: WindowRow, vmName: string | null): Omit<MaintenanceWindow, 'skipped'> {
  return {
    rota_maintenance_windows_id: row.rota_maintenance_windows_id,
    scope: row.scope as MaintenanceWindow['scope'],
    rota_vms_id: row.rota_vms_id,
    vm_name: vmName,
    mode: row.mode as MaintenanceWindow['mode'],
    message: row.message,
    started_by: row.started_by_name,
    started_at: row.started_at.toISOString(),
  };
}
