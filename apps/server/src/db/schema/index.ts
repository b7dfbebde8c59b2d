/**
 * Rota's tables, one file per owning module: `schema/<module>.ts` holds the tables of
 * `modules/<module>`, `schema/lib/<name>.ts` those of `lib/<name>.ts`. Only the owner's
 * repositories (and the read-only views and statement files it lends) import a table or name it
 * in SQL; every other module calls the owner's service. The lint rule `rota/table-owner`
 * (eslint/rota-rules.js) reads the ownership from these paths.
 */
export * from './clients.js';
export * from './users.js';
export * from './profiles.js';
export * from './user-clients.js';
export * from './auth.js';
export * from './lib/rate-limiter.js';
export * from './robots.js';
export * from './robot-versions.js';
export * from './packages.js';
export * from './robot-fields.js';
export * from './tasks.js';
export * from './vms.js';
export * from './agents.js';
export * from './schedulings.js';
export * from './calendars.js';
export * from './parameters.js';
export * from './executions.js';
export * from './execution-days.js';
export * from './artifacts.js';
export * from './scheduler.js';
export * from './teams.js';
export * from './environments.js';
export * from './status-items.js';
export * from './audit.js';
export * from './lib/row-counts.js';
export * from './blobs.js';
export * from './alerts.js';
export * from './triggers.js';
export * from './api-keys.js';
export * from './mfa.js';
export * from './oidc.js';
export * from './log-streams.js';
export * from './maintenance.js';
