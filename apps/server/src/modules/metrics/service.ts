import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/client.js';
import { agentCounts, executionStatusCounts, queueDepths } from './repository.js';

/** How far back /metrics counts ended executions (queued and processing: all of them). */
export const ENDED_WINDOW_SECONDS = 24 * 60 * 60;

/** Route label of a request no route matched (404s): never the raw URL, which anyone picks. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What a failed gauge query is reported to. */
export interface MetricsLog {
  warn(obj: unknown, msg?: string): void;
}

/**
 * The Prometheus metrics of one app. A registry of its own, not prom-client's global
 * one: tests build many apps in one process. Gauges of the database are read at scrape time,
 * one query each; one that fails is logged and left out, and the rest of the scrape answers.
 */
export class MetricsService {
  readonly registry = new Registry();
  private readonly claimLatency: Histogram;
  private readonly alertDeliveries: Counter<'outcome' | 'channel'>;
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route'>;

  constructor(db: Db, log: MetricsLog) {
    const register = [this.registry];
    /** A gauge filled at each scrape by `read`; its old series go, so a drained robot leaves. */
    const fromDatabase = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      read: (gauge: Gauge<L>) => Promise<void>,
    ) =>
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers: register,
        async collect() {
          this.reset();
          try {
            await read(this);
          } catch (error) {
            log.warn({ err: error, metric: name }, 'metrics: could not read a gauge');
            this.reset();
          }
        },
      });

    fromDatabase(
      'rota_executions',
      'Executions by client and status: every queued and processing one, and those that ended in the last 24 hours',
      ['client', 'status'],
      async (gauge) => {
        for (const row of await executionStatusCounts(db, ENDED_WINDOW_SECONDS)) {
          gauge.set({ client: String(row.client), status: row.status }, Number(row.n));
        }
      },
    );
    fromDatabase(
      'rota_queue_depth',
      'Queued executions by client and robot',
      ['client', 'robot'],
      async (gauge) => {
        for (const row of await queueDepths(db)) {
          gauge.set({ client: String(row.client), robot: String(row.robot) }, Number(row.n));
        }
      },
    );
    fromDatabase(
      'rota_agents',
      'Agents by client and connectivity (active: a heartbeat within the active window)',
      ['client', 'connectivity'],
      async (gauge) => {
        for (const row of await agentCounts(db)) {
          const connectivity = row.active ? 'active' : 'inactive';
          gauge.inc({ client: String(row.client), connectivity }, Number(row.n));
        }
      },
    );

    this.claimLatency = new Histogram({
      name: 'rota_claim_latency_seconds',
      help: 'Time from an execution being queued to an agent claiming it',
      // Runs wait from a moment (an idle agent long-polls) to hours (a busy VM).
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers: register,
    });
    this.alertDeliveries = new Counter({
      name: 'rota_alert_deliveries_total',
      help: 'Alert delivery attempts by outcome and channel',
      labelNames: ['outcome', 'channel'],
      registers: register,
    });
    this.httpRequests = new Counter({
      name: 'rota_http_requests_total',
      help: 'HTTP requests by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      registers: register,
    });
    this.httpDuration = new Histogram({
      name: 'rota_http_request_duration_seconds',
      help: 'HTTP request duration by method and route template',
      labelNames: ['method', 'route'],
      registers: register,
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** DispatchService's `onClaimed`: a run waited this long in the queue before an agent took it. */
  claimed(waitedSeconds: number) {
    this.claimLatency.observe(Math.max(0, waitedSeconds));
  }

  /** The alert worker's `onOutcome`: one delivery attempt ended (e.g. "delivered", "failed"). */
  alertOutcome(outcome: string, channel: string) {
    this.alertDeliveries.inc({ outcome, channel });
  }

  /** One answered request; `route` is the route's template (null: no route matched). */
  httpResponse(method: string, route: string | undefined, status: number, seconds: number) {
    const template = route ?? UNMATCHED_ROUTE;
    this.httpRequests.inc({ method, route: template, status: String(status) });
    this.httpDuration.observe({ method, route: template }, seconds);
  }

  /** The text a scrape answers, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
