import {
  ENVIRONMENT_TEST_TIMEOUT_MS,
  translateMessage,
  type Environment,
  type EnvironmentCreate,
  type EnvironmentListQuery,
  type EnvironmentTestResult,
  type EnvironmentUpdate,
  type Language,
  type ListResponse,
  type RunEnvironment,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { tryPostgres, type ConnectionTarget } from './connection-test.js';
import {
  deleteEnvironment,
  findEnvironment,
  insertEnvironment,
  listEnvironments,
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

/** `/rota/env/api/v1`: connection settings with `db_pass` and `rota_token` sealed at rest. */
export class EnvironmentService {
  constructor(
    private readonly db: Db,
    private readonly secretBox: SecretBox,
    private readonly testTimeoutMs = ENVIRONMENT_TEST_TIMEOUT_MS,
  ) {}

  list(scope: TenantScope, query: EnvironmentListQuery): Promise<ListResponse<Environment>> {
    return listEnvironments(this.db, scope, query, toEnvironment);
  }

  async show(scope: TenantScope, id: number): Promise<Environment> {
    const row = await findEnvironment(this.db, scope, id);
    if (!row) throw notFound();
    return toEnvironment(row);
  }

  async create(scope: TenantScope, input: EnvironmentCreate): Promise<Environment> {
    const values: EnvironmentValues = {
      title: input.title,
      db_url: input.db_url,
      db_name: input.db_name,
      db_user: input.db_user,
      db_port: input.db_port ?? null,
      rota_api_url: input.rota_api_url,
      db_pass_sealed: this.seal(input.db_pass) ?? null,
      rota_token_sealed: this.seal(input.rota_token) ?? null,
    };
    try {
      return await this.show(scope, await insertEnvironment(this.db, scope, values));
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateTitle();
      throw error;
    }
  }

  /** Fields left out keep their value; a secret sent replaces it and `null` clears it. */
  async update(
    scope: TenantScope,
    { id, db_pass, rota_token, ...changes }: EnvironmentUpdate,
  ): Promise<void> {
    try {
      const changed = await updateEnvironment(this.db, scope, id, {
        ...changes,
        db_pass_sealed: this.seal(db_pass),
        rota_token_sealed: this.seal(rota_token),
      });
      if (!changed) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateTitle();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteEnvironment(this.db, scope, id))) throw notFound();
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
   */
  async test(scope: TenantScope, id: number, lang: Language): Promise<EnvironmentTestResult> {
    const row = await readConnection(this.db, scope, id);
    if (!row) throw notFound();
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    if (!row.db_url) {
      return {
        ok: false,
        message: translateMessage(lang, 'environment_without_host'),
        duration_ms: 0,
      };
    }
    const { host, port } = hostAndPort(row.db_url);
    const user = row.db_user ?? 'postgres';
    const target: ConnectionTarget = {
      host,
      port: row.db_port ?? port ?? DEFAULT_PORT,
      // PostgreSQL's own default: the database named after the user.
      database: row.db_name ?? user,
      user,
      password: row.db_pass_sealed ? this.secretBox.open(row.db_pass_sealed) : '',
    };
    const outcome = await tryPostgres(target, this.testTimeoutMs);
    if (outcome.ok) {
      return {
        ok: true,
        message: `${translateMessage(lang, 'connection_ok')}: ${outcome.version}`,
        duration_ms: elapsed(),
      };
    }
    const seconds = String(Math.round(this.testTimeoutMs / 100) / 10);
    return {
      ok: false,
      message: outcome.timedOut
        ? `${translateMessage(lang, 'connection_timeout', { seconds })} (${outcome.error})`
        : outcome.error,
      duration_ms: elapsed(),
    };
  }

  /** Undefined keeps what is stored, null clears it, a text is sealed. */
  private seal(secret: string | null | undefined): string | null | undefined {
    if (secret === undefined || secret === null) return secret;
    return this.secretBox.seal(secret);
  }
}
