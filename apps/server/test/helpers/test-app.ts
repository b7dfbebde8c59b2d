import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Language } from '@rota/contract';
import { SecretBox } from '../../src/lib/secret-box.js';
import { buildApp, type App, type AppOptions } from '../../src/http/app.js';
import { seedDatabase } from '../../src/db/seed.js';
import { openPostgres, type Database, type Db } from '../../src/db/client.js';
import { openTestDatabase } from './database.js';
import { Mailbox } from './mailbox.js';

export const ADMIN = {
  access: 'admin',
  email: 'admin@localhost',
  password: 'admin-password-1',
} as const;
export const PUBLIC_URL = 'http://rota.test';
/** Where the tests' own receivers listen: what an on-premises administrator would allow. */
export const TEST_ALLOWED_NETWORKS = '127.0.0.0/8,::1/128';

export interface TestApp {
  app: App;
  db: Db;
  events: Database['events'];
  mailbox: Mailbox;
  /** DATA_DIR of this app (packages live under it). */
  dataDir: string;
  /** The key its SecretBox seals with, to check what is stored at rest. */
  secretKey: Buffer;
  close(): Promise<void>;
}

/** The real app on a fresh seeded database, driven through app.inject. */
export async function createTestApp(
  options: {
    webRoot?: string | null;
    engine?: AppOptions['engine'];
    database?: Database;
    trustProxy?: boolean;
    /** What time it is for cron, calendars and SLAs (a FakeClock in tests that move time). */
    clock?: AppOptions['clock'];
    /** A real mailer instead of the Mailbox (alerts' SMTP test); `mailbox` then stays empty. */
    mailer?: AppOptions['mailer'];
    /** The SecretBox key: an app rebuilt on the same database opens what the first sealed. */
    secretKey?: Buffer;
    /** The alert worker's seams (outbound name resolution). */
    alerts?: AppOptions['alerts'];
    /**
     * ALERT_ALLOWED_NETWORKS: loopback by default, where the tests' receivers and PostgreSQL
     * listen; null for none (a test of what the outbound rule refuses).
     */
    allowedNetworks?: string | null;
    /** METRICS_TOKEN: a bearer that may scrape /metrics from another machine. */
    metricsToken?: string;
    /** A discovered OpenID provider (test/helpers/oidc-provider.ts). */
    oidc?: AppOptions['oidc'];
    /** Fastify's logger (a test that reads the log passes a stream); none by default. */
    logger?: AppOptions['logger'];
    /** LOG_REQUESTS; on by default when a logger is given. */
    logRequests?: boolean;
    /** AGENT_RELEASE_DIR: where the packaged agent is read from (apps/agent/release if unset). */
    agentReleaseDir?: string;
    /** DATA_DIR, when the test's database lives in one (an embedded database on disk). */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'rota-data-')));
  const secretKey = options.secretKey ?? randomBytes(32);
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  const mailbox = new Mailbox();
  const app = await buildApp({
    config: {
      publicUrl: PUBLIC_URL,
      SMTP_URL: undefined,
      MAIL_FROM: 'Rota <rota@test>',
      TRUST_PROXY: options.trustProxy ?? false,
      METRICS_TOKEN: options.metricsToken,
      ALERT_ALLOWED_NETWORKS:
        options.allowedNetworks === undefined
          ? TEST_ALLOWED_NETWORKS
          : (options.allowedNetworks ?? undefined),
      AGENT_RELEASE_DIR: options.agentReleaseDir,
    },
    db: database.db,
    logDb: database.logDb,
    webRoot: options.webRoot ?? null,
    // A test that reads the log reads every line, per-request ones included (LOG_REQUESTS).
    ...(options.logger ? { logger: options.logger, logRequests: options.logRequests ?? true } : {}),
    clock: options.clock,
    mailer: options.mailer ?? mailbox,
    alerts: options.alerts,
    oidc: options.oidc,
    secretBox: new SecretBox(secretKey),
    dataDir,
    events: database.events,
    // Tests drive the scheduler and reaper with app.engine.tick() unless they ask for the loop.
    engine: options.engine ?? { loop: false },
  });
  await app.ready();
  return {
    app,
    db: database.db,
    events: database.events,
    mailbox,
    dataDir,
    secretKey,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A small client over app.inject that speaks like the console does. */
export function client(app: App, options: { token?: string; lang?: Language; ip?: string } = {}) {
  const call = async (method: Method, url: string, body?: unknown) => {
    const response = await app.inject({
      method,
      url,
      remoteAddress: options.ip ?? '127.0.0.1',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.lang ? { 'accept-language': options.lang } : {}),
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const text = response.body;
    return {
      status: response.statusCode,
      headers: response.headers,
      body: text ? (safeJson(text) as any) : undefined,
    };
  };
  return {
    /** The header value, for calls made with app.inject directly (uploads). */
    authorization: options.token ? `Bearer ${options.token}` : undefined,
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown) => call('POST', url, body),
    put: (url: string, body?: unknown) => call('PUT', url, body),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const AUTH = '/api/user/api/auth/v1';

export async function signIn(app: App, access: string, password: string): Promise<string> {
  const res = await client(app).post(`${AUTH}/session`, { access, password });
  if (res.status !== 200)
    throw new Error(`sign-in of ${access} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/**
 * Two instances of the app on one throw-away PostgreSQL database, each with its own pool and
 * DATA_DIR (they share only the database). Needs DATABASE_URL. Close the second first.
 */
export async function createTwoInstances(): Promise<{ first: TestApp; second: TestApp }> {
  const database = await openTestDatabase();
  const first = await createTestApp({ database });
  const second = await createTestApp({ database: await openPostgres(database.url!, 4) });
  return { first, second };
}
