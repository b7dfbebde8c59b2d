import type { FastifyBaseLogger } from 'fastify';
import {
  ENVIRONMENT_TEST_TIMEOUT_MS,
  ENVIRONMENT_TESTS_PER_CLIENT_PER_MINUTE,
  ENVIRONMENT_TESTS_PER_MINUTE,
  translateMessage,
  type Environment,
  type EnvironmentCreate,
  type EnvironmentListQuery,
  type EnvironmentTest,
  type EnvironmentTestResult,
  type EnvironmentUpdate,
  type Language,
  type ListResponse,
  type RunEnvironment,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import { RateLimiter } from '../../lib/rate-limiter.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { OutboundPolicy } from '../../lib/outbound-address.js';
import { tryAddresses, type ConnectionVerdict } from './connection-test.js';
import {
  deleteEnvironment,
  findEnvironment,
  insertEnvironment,
  listEnvironments,
  lockConnection,
  readConnection,
  readEnvironmentsForRun,
  updateEnvironment,
  type EnvironmentRow,
  type EnvironmentValues,
} from './repository.js';

export const toEnvironment = (row: EnvironmentRow): Environment => ({
  rota_environments_id: row.rota_environments_id,
  title: row.title,
  db_url: row.db_url,
  db_name: row.db_name,
  db_user: row.db_user,
  db_port: row.db_port,
  rota_api_url: row.rota_api_url,
  has_db_pass: row.has_db_pass,
  has_rota_token: row.has_rota_token,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateTitle = () =>
  new AppError('conflict', [{ field: 'title', message: 'duplicate_environment_title' }]);

const DEFAULT_PORT = 5432;

/**
 * `db_url` holds the host; a `postgres://` address pasted there is read for its host and port
 * (and nothing else: a password written into it is the user's choice, not read as a secret).
 */
function hostAndPort(dbUrl: string): { host: string; port?: number } {
  if (!/^postgres(ql)?:\/\//i.test(dbUrl)) return { host: dbUrl };
  try {
    const url = new URL(dbUrl);
    return {
      host: decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : undefined,
    };
  } catch {
    return { host: dbUrl };
  }
}

/** The connection settings as stored; what the test reads them from. */
interface ConnectionSettings {
  db_url: string | null;
  db_name: string | null;
  db_user: string | null;
  db_port: number | null;
}

/** Where a connection test goes: host as written (a name or an address), effective defaults. */
interface Target {
  host: string;
  port: number;
  user: string;
  database: string;
}

function targetOf(row: ConnectionSettings): Target | null {
  if (!row.db_url) return null;
  const { host, port } = hostAndPort(row.db_url);
  const user = row.db_user ?? 'postgres';
  return {
    host,
    port: row.db_port ?? port ?? DEFAULT_PORT,
    user,
    // PostgreSQL's own default: the database named after the user.
    database: row.db_name ?? user,
  };
}

/**
 * What a stored `db_pass` is bound to: the target it was typed for. The host compares
 * case-insensitively and without a trailing dot; everything else exactly.
 */
function bindingOf(row: ConnectionSettings): string | null {
  const target = targetOf(row);
  if (!target) return null;
  return JSON.stringify([
    target.host.toLowerCase().replace(/\.$/, ''),
    target.port,
    target.user,
    target.database,
  ]);
}

/** `/rota/env/api/v1`: connection settings with `db_pass` and `rota_token` sealed at rest. */
export class EnvironmentService {
  private readonly testLimiter: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly secretBox: SecretBox,
    private readonly audit: AuditService,
    private readonly outbound: OutboundPolicy,
    private readonly testTimeoutMs = ENVIRONMENT_TEST_TIMEOUT_MS,
  ) {
    this.testLimiter = new RateLimiter(db, 60);
  }

  list(scope: TenantScope, query: EnvironmentListQuery): Promise<ListResponse<Environment>> {
    return listEnvironments(this.db, scope, query, toEnvironment);
  }

  show(scope: TenantScope, id: number): Promise<Environment> {
    return this.showIn(this.db, scope, id);
  }

  /** Recorded as `show` answers it: which secrets are set, never what they are. */
  async create(
    scope: TenantScope,
    input: EnvironmentCreate,
    author: AuditAuthor,
  ): Promise<Environment> {
    const values: EnvironmentValues = {
      title: input.title,
      db_url: input.db_url,
      db_name: input.db_name,
      db_user: input.db_user,
      db_port: input.db_port ?? null,
      rota_api_url: input.rota_api_url,
      db_pass_sealed: this.seal(input.db_pass) ?? null,
      db_pass_target: input.db_pass
        ? bindingOf({ ...input, db_port: input.db_port ?? null })
        : null,
      rota_token_sealed: this.seal(input.rota_token) ?? null,
    };
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('environment', (environment) => environment.rota_environments_id),
        async (tx) => this.showIn(tx, scope, await insertEnvironment(tx, scope, values)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateTitle();
      throw error;
    }
  }

  /**
   * Fields left out keep their value; a secret sent replaces it and `null` clears it. A
   * `db_pass` sent is bound to the target the row has after this change; one left out keeps
   * its old binding, so a changed host, port, user or database needs it typed again.
   */
  async update(
    scope: TenantScope,
    { id, db_pass, rota_token, ...changes }: EnvironmentUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const what = {
      action: 'update',
      entity: 'environment',
      entity_id: id,
      before: (tx: Db) => this.showIn(tx, scope, id),
      after: (tx: Db) => this.showIn(tx, scope, id),
    } as const;
    try {
      await this.audit.recorded(author, what, async (tx) => {
        let db_pass_target: string | null | undefined;
        if (db_pass === null) db_pass_target = null;
        if (typeof db_pass === 'string') {
          // Locked, so a concurrent change of the host cannot slip between read and write.
          const current = await lockConnection(tx, scope, id);
          if (!current) throw notFound();
          const given = Object.entries(changes).filter(([, value]) => value !== undefined);
          db_pass_target = bindingOf({ ...current, ...Object.fromEntries(given) });
        }
        const changed = await updateEnvironment(tx, scope, id, {
          ...changes,
          db_pass_sealed: this.seal(db_pass),
          db_pass_target,
          rota_token_sealed: this.seal(rota_token),
        });
        if (!changed) throw notFound();
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateTitle();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('environment', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteEnvironment(tx, scope, id))) throw notFound();
      },
    );
  }

  /** The client's environments with their secrets opened: only for a running robot's API. */
  async readForRun(scope: TenantScope): Promise<RunEnvironment[]> {
    const rows = await readEnvironmentsForRun(this.db, scope);
    return rows.map((row) => ({
      title: row.title,
      db_url: row.db_url,
      db_name: row.db_name,
      db_user: row.db_user,
      db_pass: row.db_pass_sealed ? this.secretBox.open(row.db_pass_sealed) : null,
      db_port: row.db_port,
      rota_token: row.rota_token_sealed ? this.secretBox.open(row.rota_token_sealed) : null,
      rota_api_url: row.rota_api_url,
    }));
  }

  /**
   * Tries the PostgreSQL the environment describes. A failed connection is an answer
   * (`ok: false` and why), not an error; only an environment the caller cannot see is a 404.
   *
   * The stored password goes only to the target it was saved for (else `db_pass` must be typed
   * again: 400); a destination the outbound rule refuses (internal, reserved, metadata, unless
   * ALERT_ALLOWED_NETWORKS lists it) is a 400, the name resolved once and the checked address
   * connected to; the answer is one of four (connected, refused, timed out, authentication
   * failed), the server's own words in the log only; each user may try
   * ENVIRONMENT_TESTS_PER_MINUTE a minute and each client ENVIRONMENT_TESTS_PER_CLIENT_PER_MINUTE
   * (429).
   */
  async test(
    scope: TenantScope,
    usersId: number,
    input: EnvironmentTest,
    lang: Language,
    log: FastifyBaseLogger,
  ): Promise<EnvironmentTestResult> {
    const [byUser, byClient] = await Promise.all([
      this.testLimiter.hit(`environment-test:${usersId}`),
      this.testLimiter.hit(`environment-test:client:${scope.clientId}`),
    ]);
    if (
      byUser > ENVIRONMENT_TESTS_PER_MINUTE ||
      byClient > ENVIRONMENT_TESTS_PER_CLIENT_PER_MINUTE
    ) {
      throw new AppError('connection_tests_too_many', undefined, 60);
    }
    const row = await readConnection(this.db, scope, input.id);
    if (!row) throw notFound();
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const target = targetOf(row);
    if (!target) {
      return {
        ok: false,
        message: translateMessage(lang, 'environment_without_host'),
        duration_ms: 0,
      };
    }
    let password = '';
    if (input.db_pass !== undefined) {
      password = input.db_pass;
    } else if (row.db_pass_sealed) {
      if (row.db_pass_target === null || row.db_pass_target !== bindingOf(row)) {
        throw invalidField('db_pass', 'retype_db_pass');
      }
      password = this.secretBox.open(row.db_pass_sealed);
    }
    const resolution = await this.outbound.resolve(target.host);
    if (resolution.kind === 'refused') throw invalidField('db_url', 'destination_not_allowed');
    const outcome =
      resolution.kind === 'addresses'
        ? await tryAddresses(
            resolution.addresses,
            { port: target.port, user: target.user, database: target.database, password },
            this.testTimeoutMs,
          )
        : ({
            ok: false,
            postgres: false,
            verdict: 'refused',
            detail: `unresolved: ${resolution.detail}`,
          } as const);
    // The password is no part of the outcome: only what the server or the network answered.
    log.info(
      {
        environment: input.id,
        target: { host: target.host, port: target.port },
        verdict: outcome.ok ? 'reachable' : outcome.verdict,
        detail: outcome.detail,
      },
      'environment connection test',
    );
    const verdict: ConnectionVerdict = outcome.ok ? 'reachable' : outcome.verdict;
    return {
      ok: outcome.ok,
      message: this.messageOf(verdict, lang),
      duration_ms: elapsed(),
    };
  }

  private messageOf(verdict: ConnectionVerdict, lang: Language): string {
    switch (verdict) {
      case 'reachable':
        return translateMessage(lang, 'connection_ok');
      case 'auth_failed':
        return translateMessage(lang, 'connection_auth_failed');
      case 'timed_out':
        return translateMessage(lang, 'connection_timeout', {
          seconds: String(Math.round(this.testTimeoutMs / 1000)),
        });
      default:
        return translateMessage(lang, 'connection_refused');
    }
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Environment> {
    const row = await findEnvironment(db, scope, id);
    if (!row) throw notFound();
    return toEnvironment(row);
  }

  /** Undefined keeps what is stored, null clears it, a text is sealed. */
  private seal(secret: string | null | undefined): string | null | undefined {
    if (secret === undefined || secret === null) return secret;
    return this.secretBox.seal(secret);
  }
}
