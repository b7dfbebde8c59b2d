import pg from 'pg';

export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

export type ConnectionOutcome =
  { ok: true; version: string } | { ok: false; error: string; timedOut: boolean };

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

/**
 * Connects to the PostgreSQL described, runs `select version()` and disconnects, all within
 * `timeoutMs`. Every connection setting is given explicitly (the password as a function) so
 * the driver never falls back to this server's own PGUSER, PGPASSWORD or ~/.pgpass: those
 * would otherwise be sent to whatever host an environment names.
 */
export async function tryPostgres(
  target: ConnectionTarget,
  timeoutMs: number,
): Promise<ConnectionOutcome> {
  const started = Date.now();
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
  // do not (a server that accepts the startup and then goes silent), so 5 s means 5 s.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineReached()), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), deadline]);
    const result = await Promise.race([
      client.query<{ version: string }>('select version() as version'),
      deadline,
    ]);
    return { ok: true, version: result.rows[0]?.version ?? '' };
  } catch (error) {
    const timedOut =
      error instanceof DeadlineReached ||
      (Date.now() - started >= timeoutMs - 50 && /timeout|timed out/i.test(describe(error)));
    return { ok: false, error: describe(error), timedOut };
  } finally {
    clearTimeout(timer);
    client.end().catch(() => {});
  }
}
