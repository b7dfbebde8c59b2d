import pg from 'pg';

export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * What a try gave, as the user is told it: only these four, whatever the server behind the
 * address said (its version, which database or role exists, which other service listens there
 * stay in the log's `detail`).
 */
export type ConnectionVerdict = 'reachable' | 'refused' | 'timed_out' | 'auth_failed';

export type ConnectionOutcome =
  | { ok: true; detail: string }
  | { ok: false; postgres: true; verdict: ConnectionVerdict; detail: string }
  | { ok: false; postgres: false; verdict: ConnectionVerdict; detail: string };

class DeadlineReached extends Error {
  constructor() {
    super('timeout expired');
  }
}

/** What went wrong, in the driver's words; a refused dual-stack connect is an AggregateError. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return [...new Set(error.errors.map(describe))].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return error.message || (typeof code === 'string' ? code : error.name);
  }
  return String(error);
}

/** PostgreSQL answered with one of its own errors (SQLSTATE): wrong password, no database... */
function fromPostgres(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && typeof error.code === 'string';
}

/**
 * A PostgreSQL refusal, told as "authentication failed" when it is about the login: class 28
 * (wrong password, unknown role, no pg_hba entry) and an unknown database (3D000), which would
 * otherwise tell anyone who may try which databases exist. Others (too many connections,
 * starting up) say only that the server did not take the connection.
 */
function verdictOfPostgres(error: pg.DatabaseError): ConnectionVerdict {
  const code = error.code ?? '';
  return code.startsWith('28') || code === '3D000' ? 'auth_failed' : 'refused';
}

const TIMEOUT_TEXT = /timeout|timed out|ETIMEDOUT/i;

/** A driver error that is not PostgreSQL's: the deadline, or anything else (refused, reset). */
function verdictOfTransport(error: unknown, detail: string): ConnectionVerdict {
  return error instanceof DeadlineReached || TIMEOUT_TEXT.test(detail) ? 'timed_out' : 'refused';
}

/**
 * Connects to the PostgreSQL at `target.host` (an address already checked, not a name), runs
 * `select version()` and disconnects, all within `timeoutMs`. Every connection setting is given
 * explicitly (the password as a function) so the driver never falls back to this server's own
 * PGUSER, PGPASSWORD or ~/.pgpass: those would otherwise be sent to whatever host an
 * environment names.
 */
export async function tryPostgres(
  target: ConnectionTarget,
  timeoutMs: number,
): Promise<ConnectionOutcome> {
  const client = new pg.Client({
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: () => target.password,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'rota-connection-test',
  });
  // After we give up, the socket may still report errors; they have nobody left to tell.
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  // The driver's own timeouts cover connecting and the query; this one also covers what they
  // do not (a server that accepts the startup and then goes silent).
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineReached()), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), deadline]);
    const result = await Promise.race([
      client.query<{ version: string }>('select version() as version'),
      deadline,
    ]);
    return { ok: true, detail: result.rows[0]?.version ?? '' };
  } catch (error) {
    const detail = describe(error);
    return fromPostgres(error)
      ? { ok: false, postgres: true, verdict: verdictOfPostgres(error), detail }
      : { ok: false, postgres: false, verdict: verdictOfTransport(error, detail), detail };
  } finally {
    clearTimeout(timer);
    client.end().catch(() => {});
  }
}

/**
 * Tries each checked address in turn (a name with an IPv6 and an IPv4 address, the server
 * listening on one) until one answers as PostgreSQL, all within `timeoutMs`.
 */
export async function tryAddresses(
  addresses: readonly string[],
  target: Omit<ConnectionTarget, 'host'>,
  timeoutMs: number,
): Promise<ConnectionOutcome> {
  const until = Date.now() + timeoutMs;
  const details: string[] = [];
  // Told as the last address's verdict: a timeout anywhere ends the time left for the rest.
  let verdict: ConnectionVerdict = 'timed_out';
  for (const host of addresses) {
    const left = until - Date.now();
    if (left <= 0) break;
    const outcome = await tryPostgres({ ...target, host }, left);
    if (outcome.ok || outcome.postgres) return outcome;
    details.push(`${host}: ${outcome.detail}`);
    verdict = outcome.verdict;
  }
  return { ok: false, postgres: false, verdict, detail: details.join('; ') || 'timeout expired' };
}
