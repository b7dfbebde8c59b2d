import {
  parameterValueOrPassword,
  type ListResponse,
  type Parameter,
  type ParameterCreate,
  type ParameterListQuery,
  type ParameterUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  deleteParameter,
  findParameter,
  insertParameter,
  listParameters,
  readStoredParameters,
  updateParameter,
  type ParameterRow,
  type StoredValue,
} from './repository.js';

/** A parameter as a run sees it; `secret` says its value must be masked in logs. */
export interface RunParameter {
  name: string;
  value: string;
  secret: boolean;
}

export const toParameter = (row: ParameterRow): Parameter => ({
  rota_parameters_id: row.rota_parameters_id,
  name: row.name,
  // The invariant keeps value null beside a password; this makes the answer safe regardless.
  value: row.has_password ? null : row.value,
  has_password: row.has_password,
  description: row.description,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_parameter_name' }]);

export class ParameterService {
  /**
   * Every run reads its client's parameters (dispatch claims them thousands of times a second):
   * they are kept here by client, dropped on every change made here and, through `onChanged`
   * (NOTIFY), on every other instance, and all at once when that channel may have missed one.
   */
  private readonly runCache = new Map<number, Promise<RunParameter[]>>();
  /** False while NOTIFY's connection is down: nothing is cached then (`notifyGap`). */
  private listening = true;

  constructor(
    private readonly db: Db,
    private readonly secretBox: SecretBox,
    private readonly audit: AuditService,
    /** A client's parameters changed (committed): other instances must forget theirs. */
    private readonly onChanged: (clientId: number) => void = () => {},
  ) {}

  /** Another instance (or this one) changed these clients' parameters. */
  forget(clientIds: readonly number[]) {
    // A read still under way for a client is dropped with it: the next run reads afresh.
    for (const id of clientIds) this.runCache.delete(id);
  }

  /**
   * NOTIFY's connection dropped (`listening` false: nothing is cached until it is back) or
   * listens again (true): a change made meanwhile elsewhere was never heard, so all goes.
   */
  notifyGap(listening: boolean) {
    this.listening = listening;
    this.runCache.clear();
  }

  private changed(scope: TenantScope) {
    this.forget([scope.clientId]);
    this.onChanged(scope.clientId);
  }

  list(scope: TenantScope, query: ParameterListQuery): Promise<ListResponse<Parameter>> {
    return listParameters(this.db, scope, query, toParameter);
  }

  show(scope: TenantScope, id: number): Promise<Parameter> {
    return this.showIn(this.db, scope, id);
  }

  /** Recorded as `show` answers it: whether there is a password, never the password. */
  async create(
    scope: TenantScope,
    { name, description, ...input }: ParameterCreate,
    author: AuditAuthor,
  ): Promise<Parameter> {
    // The contract guarantees exactly one of the two.
    const stored = this.stored(input) ?? { value: null, password_sealed: null };
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('parameter', (parameter) => parameter.rota_parameters_id),
        async (tx) =>
          this.showIn(
            tx,
            scope,
            await insertParameter(tx, scope, { name, description, ...stored }),
          ),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    } finally {
      // Committed (or failed, which changed nothing and costs one read): runs read afresh.
      this.changed(scope);
    }
  }

  /** A password replaces the value and a value the password; neither keeps what is there. */
  async update(
    scope: TenantScope,
    { id, name, description, ...input }: ParameterUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('parameter', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          const changed = await updateParameter(tx, scope, id, {
            name,
            description,
            ...this.stored(input),
          });
          if (!changed) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    } finally {
      // Committed (or failed, which changed nothing and costs one read): runs read afresh.
      this.changed(scope);
    }
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.deleted('parameter', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await deleteParameter(tx, scope, id))) throw notFound();
        },
      );
    } finally {
      this.changed(scope);
    }
  }

  /**
   * The values a run reads, passwords opened, for the engine (not routed). `names` picks some,
   * matched in any case; a name the client lacks is simply absent.
   */
  async readForRun(scope: TenantScope, names?: readonly string[]): Promise<RunParameter[]> {
    if (names?.length === 0) return [];
    // Only the whole list of a client (what every claim reads) is kept.
    if (names !== undefined || scope.robotIds !== null || !this.listening) {
      return this.readStored(scope, names);
    }
    const clientId = scope.clientId;
    let cached = this.runCache.get(clientId);
    if (!cached) {
      const reading = this.readStored(scope);
      cached = reading;
      this.runCache.set(clientId, reading);
      // A failed read is not kept: the next run tries again.
      reading.catch(() => {
        if (this.runCache.get(clientId) === reading) this.runCache.delete(clientId);
      });
    }
    // Each run gets its own copies (a caller may change what it gets).
    return (await cached).map((parameter) => ({ ...parameter }));
  }

  private async readStored(scope: TenantScope, names?: readonly string[]) {
    const rows = await readStoredParameters(this.db, scope, names);
    return rows.map((row) =>
      row.password_sealed === null
        ? { name: row.name, value: row.value ?? '', secret: false }
        : { name: row.name, value: this.secretBox.open(row.password_sealed), secret: true },
    );
  }

  private stored(input: {
    value?: string | null;
    password?: string | null;
  }): StoredValue | undefined {
    const { hasValue, hasPassword } = parameterValueOrPassword(input);
    if (hasPassword) return { value: null, password_sealed: this.secretBox.seal(input.password!) };
    if (hasValue) return { value: input.value!, password_sealed: null };
    return undefined;
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Parameter> {
    const row = await findParameter(db, scope, id);
    if (!row) throw notFound();
    return toParameter(row);
  }
}
