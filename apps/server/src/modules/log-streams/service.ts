import type {
  ListResponse,
  LogStreamConfig,
  LogStreamCreate,
  LogStreamListQuery,
  LogStreamTest,
  LogStreamUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import { DESTINATION_NOT_ALLOWED, type OutboundPolicy } from '../../lib/outbound-address.js';
import { RateLimiter } from '../../lib/rate-limiter.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { LogStreamWorker } from './log-stream-worker.js';
import {
  deleteLogStream,
  findLogStream,
  insertLogStream,
  listLogStreams,
  updateLogStream,
  type LogStreamRow,
  type LogStreamValues,
} from './repository.js';

/** A stream as answered: whether a CA certificate is kept, never the certificate. */
export function toLogStream(row: LogStreamRow): LogStreamConfig {
  return {
    rota_log_streams_id: row.rota_log_streams_id,
    name: row.name,
    active: row.active,
    transport: row.transport === 'tls' ? 'tls' : 'tcp',
    host: row.host,
    port: row.port,
    events: row.events as LogStreamConfig['events'],
    ca_certificate_set: row.ca_certificate !== null,
    pending: Number(row.pending),
    failed: Number(row.failed),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** "Test" a minute, per user and per client, as the alerts' button. */
export const LOG_STREAM_TESTS_PER_USER_PER_MINUTE = 5;
export const LOG_STREAM_TESTS_PER_CLIENT_PER_MINUTE = 20;

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_log_stream_name' }]);

/**
 * Log streams: where a client's audit records and run events go as syslog, and the "test"
 * button. A CA certificate is sealed at rest and never answered; a destination the outbound
 * guard refuses is a field error when saved and refused again when sent (names resolve later).
 */
export class LogStreamService {
  private readonly testLimiter: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly secretBox: SecretBox,
    readonly worker: LogStreamWorker,
    private readonly outbound: OutboundPolicy,
    private readonly clock: Clock = systemClock,
  ) {
    this.testLimiter = new RateLimiter(db, 60);
  }

  list(scope: TenantScope, query: LogStreamListQuery): Promise<ListResponse<LogStreamConfig>> {
    return listLogStreams(this.db, scope, query, toLogStream);
  }

  show(scope: TenantScope, id: number): Promise<LogStreamConfig> {
    return this.showIn(this.db, scope, id);
  }

  async create(scope: TenantScope, input: LogStreamCreate, author: AuditAuthor) {
    this.checkHost(input.host);
    const values: LogStreamValues = {
      name: input.name,
      active: input.active,
      transport: input.transport,
      host: input.host,
      port: input.port,
      events: input.events,
      ca_certificate: input.ca_certificate ? this.secretBox.seal(input.ca_certificate) : null,
    };
    return this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('log_stream', (stream: LogStreamConfig) => stream.rota_log_streams_id),
        async (tx) => this.showIn(tx, scope, await insertLogStream(tx, scope, values)),
      ),
    );
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: LogStreamUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const current = await findLogStream(this.db, scope, id);
    if (!current) throw notFound();
    if (changes.host !== undefined) this.checkHost(changes.host);
    const transport = changes.transport ?? current.transport;
    const keepsCertificate = changes.ca_certificate === undefined && current.ca_certificate;
    if (transport === 'tcp' && (changes.ca_certificate || keepsCertificate)) {
      // Switching to plain TCP drops the certificate rather than keeping one nothing uses.
      if (changes.ca_certificate) throw invalidField('ca_certificate', 'certificate_needs_tls');
      changes.ca_certificate = null;
    }
    const values: Partial<LogStreamValues> = {
      name: changes.name,
      active: changes.active,
      transport: changes.transport,
      host: changes.host,
      port: changes.port,
      events: changes.events,
      ca_certificate:
        changes.ca_certificate === undefined
          ? undefined
          : changes.ca_certificate === null
            ? null
            : this.secretBox.seal(changes.ca_certificate),
    };
    for (const key of Object.keys(values) as (keyof LogStreamValues)[]) {
      if (values[key] === undefined) delete values[key];
    }
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('log_stream', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateLogStream(tx, scope, id, values))) throw notFound();
        },
      ),
    );
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('log_stream', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteLogStream(tx, scope, id))) throw notFound();
      },
    );
  }

  /**
   * Sends one `test` message to the stream now, once, outside the outbox (never retried: a
   * retried test would be a slow port scan), and answers whether it was delivered. Throttled per
   * user and per client (429).
   */
  async sendTest(scope: TenantScope, usersId: number, id: number): Promise<LogStreamTest> {
    const [byUser, byClient] = await Promise.all([
      this.testLimiter.hit(`log-stream-test:user:${usersId}`),
      this.testLimiter.hit(`log-stream-test:client:${scope.clientId}`),
    ]);
    if (
      byUser > LOG_STREAM_TESTS_PER_USER_PER_MINUTE ||
      byClient > LOG_STREAM_TESTS_PER_CLIENT_PER_MINUTE
    ) {
      throw new AppError('too_many_requests', undefined, 60);
    }
    const row = await findLogStream(this.db, scope, id);
    if (!row) throw notFound();
    const now = this.clock.now();
    const result = await this.worker.sendTest(row, {
      kind: 'test',
      occurred_at: now,
      severity: 6,
      body: {
        type: 'test',
        occurred_at: now.toISOString(),
        rota_clients_id: scope.clientId,
        rota_log_streams_id: id,
        users_id: usersId,
      },
    });
    if (result.ok) return { delivered: true, last_error: null };
    return {
      delivered: false,
      last_error:
        result.error === DESTINATION_NOT_ALLOWED ? DESTINATION_NOT_ALLOWED : 'not_delivered',
    };
  }

  private checkHost(host: string) {
    if (this.outbound.refusesHost(host)) throw invalidField('host', 'destination_not_allowed');
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<LogStreamConfig> {
    const row = await findLogStream(db, scope, id);
    if (!row) throw notFound();
    return toLogStream(row);
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
