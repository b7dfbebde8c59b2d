import { z } from 'zod';
import { parseAllowedNetworks } from '../lib/outbound-address.js';

/** Empty variables count as unset, as `FOO=` in a shell or a compose file means "no value". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (v === '' || v === undefined ? fallback : v), schema);

const secretKeySchema = z
  .string()
  .refine(
    (v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32,
    'must be 32 bytes written as 64 hex characters or as base64',
  );

const envSchema = z.object({
  NODE_ENV: withDefault(z.enum(['development', 'production', 'test']), 'production'),
  PORT: withDefault(z.coerce.number().int().min(0).max(65535), 3000),
  HOST: withDefault(z.string().min(1), '127.0.0.1'),
  DATA_DIR: withDefault(z.string().min(1), './data'),
  DATABASE_URL: optional(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }),
  ),
  ROTA_SECRET_KEY: optional(secretKeySchema),
  ROTA_ADMIN_ACCESS: withDefault(
    z.string().regex(/^[a-z0-9._-]{3,50}$/, 'must be 3–50 of a-z, 0-9, ".", "_" or "-"'),
    'admin',
  ),
  ROTA_ADMIN_EMAIL: withDefault(
    z.email({ pattern: z.regexes.html5Email, error: 'must be an email address' }),
    'admin@localhost',
  ),
  ROTA_ADMIN_PASSWORD: optional(z.string().min(8, 'must have at least 8 characters').max(128)),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  MAIL_FROM: withDefault(z.string().min(3), 'Rota <no-reply@localhost>'),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })),
  /** Log every request (Fastify's incoming and completed lines); errors and slow ones always are. */
  LOG_REQUESTS: withDefault(z.stringbool(), 'false'),
  LOG_LEVEL: withDefault(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
  ),
  /**
   * How long an agent's claim on a run lasts without a heartbeat; agents heartbeat three times
   * per lease and kill a robot whose lease they could not renew.
   */
  ROTA_LEASE_SECONDS: withDefault(z.coerce.number().int().min(3).max(600), 30),
  /** Trust X-Forwarded-For from a reverse proxy when computing the client IP for throttles. */
  TRUST_PROXY: withDefault(z.stringbool(), 'false'),
  /**
   * Bearer token that lets a remote Prometheus scrape GET /metrics; unset, only this machine
   * (loopback) may.
   */
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, 'must have at least 16 characters')
      .max(256)
      .regex(/^\S+$/, 'must not contain spaces'),
  ),
  /**
   * Networks (comma-separated CIDRs) alerts and environment connection tests may reach besides
   * the public internet: loopback, private and other internal ranges are refused unless listed.
   */
  ALERT_ALLOWED_NETWORKS: optional(
    z.string().superRefine((value, ctx) => {
      try {
        parseAllowedNetworks(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  ),
  /**
   * The folder `npm run package:agent` wrote the agent executables and their manifest to,
   * which the console's "Download agent" serves; unset, apps/agent/release beside the server.
   */
  AGENT_RELEASE_DIR: optional(z.string().min(1)),
  /** OpenID Connect sign-in: unset, only local accounts sign in. */
  OIDC_ISSUER: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })),
  OIDC_CLIENT_ID: optional(z.string().min(1).max(500)),
  OIDC_CLIENT_SECRET: optional(z.string().min(1).max(2000)),
  OIDC_SCOPES: withDefault(
    z
      .string()
      .trim()
      .refine((v) => v.split(/\s+/).includes('openid'), 'must include "openid"'),
    'openid email profile',
  ),
  /** The sign-in button's text after "Sign in with". */
  OIDC_LABEL: withDefault(z.string().trim().min(1).max(60), 'SSO'),
  /** False: the password form is for platform administrators only. */
  OIDC_LOCAL_LOGIN: withDefault(z.stringbool(), 'true'),
  /** The ID token claim whose values (groups) the mappings match. */
  OIDC_GROUPS_CLAIM: withDefault(z.string().trim().min(1).max(200), 'groups'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** PUBLIC_URL without a trailing slash, defaulting to where the server listens. */
  publicUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the whole environment at once, so one failure lists every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}: ${issue.message}${env[name] !== undefined ? ` (got "${mask(name, env[name])}")` : ''}`;
      });
  // Checked apart from the schema so they are listed with every other bad variable.
  if (env.OIDC_ISSUER) {
    for (const name of ['OIDC_CLIENT_ID', 'PUBLIC_URL']) {
      if (!env[name]) problems.push(`${name}: required when OIDC_ISSUER is set`);
    }
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const value = parsed.data;
  const publicUrl = (value.PUBLIC_URL ?? `http://${value.HOST}:${value.PORT}`).replace(/\/+$/, '');
  return { ...value, publicUrl };
}

function mask(name: string, value: string | undefined): string {
  if (value === undefined) return '';
  return /PASSWORD|SECRET|KEY|TOKEN/.test(name) ? '***' : value;
}
