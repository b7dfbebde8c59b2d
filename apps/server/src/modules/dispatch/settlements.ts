import { settled as traceSettled } from '../../lib/telemetry-spans.js';
import type { Settled } from '../executions/settle-statements.js';
import type { EnginePublisher } from './live-events.js';
import type { WorkAnnouncer } from './work-announcer.js';

/** Whoever keeps scheduling slots full: told when a scheduling's run ended for good. */
export interface SlotWatcher {
  runEnded(robotId: number): void;
}

/**
 * What follows a settled attempt, however it was settled (a result, a lease run out, a
 * goodbye, a cancel, "mark as failed"): consoles hear the outcome, a retry wakes an agent, and
 * a scheduling's run that ended for good frees its slot for the queue trigger.
 */
export class Settlements {
  constructor(
    private readonly publish: EnginePublisher,
    private readonly announcer: WorkAnnouncer,
    private readonly slots: SlotWatcher,
  ) {}

  announce(settled: Settled) {
    const { execution, status, requeued } = settled;
    traceSettled(execution, status);
    this.publish.live(execution.rota_clients_id, {
      type: 'execution',
      execution_id: execution.rota_executions_id,
      rota_robots_id: execution.rota_robots_id,
      status,
    });
    if (requeued) {
      void this.announcer.requeued(execution.rota_clients_id, execution.rota_executions_id);
    } else if (execution.rota_schedulings_id !== null) {
      this.slots.runEnded(execution.rota_robots_id);
    }
  }
}
