import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Language } from '@rota/contract';
import type { Db } from '../../src/db/client.js';
import { auditLogs, profiles } from '../../src/db/schema/index.js';
import { createProvisionedClient, createUser } from './fixtures.js';
import { client, signIn, type TestApp } from './test-app.js';

export const USERS = '/api/user/api/v1';
export const PROFILES = '/api/user/profile/api/v1';
export const USER_CLIENTS = '/api/user/client/api/v1';
export const CLIENTS = '/api/rota/client/api/v1';
export const ACCESS_REQUESTS = '/api/user/access-request/api/v1';
export const AUTH = '/api/user/api/auth/v1';

export type As = ReturnType<typeof client>;

const unique = () => randomBytes(3).toString('hex');

/** A valid `create` body for the users API, with one membership. */
export function userBody(clientId: number, profileId: number, overrides: object = {}) {
  const id = unique();
  return {
    name: 'Ana',
    last_name: 'Souza',
    email: `ana.${id}@example.com`,
    access: `ana.${id}`,
    group: 'Finance',
    sector: 'Payments',
    work: 'Analyst',
    role: 'Operator',
    password: 'first-password',
    clients: [{ rota_clients_id: clientId, profiles_id: profileId }],
    ...overrides,
  };
}

export async function administratorProfileId(db: Db, clientId: number): Promise<number> {
  const [row] = await db
    .select({ id: profiles.profiles_id })
    .from(profiles)
    .where(and(eq(profiles.rota_clients_id, clientId), eq(profiles.name, 'Administrator')));
  return row!.id;
}

/**
 * A client made as the clients API makes one, and its administrator: a member with the
 * Administrator profile there only (not a platform administrator).
 */
export async function clientWithAdmin(t: TestApp, options: { lang?: Language } = {}) {
  const name = `Acme ${unique()}`;
  const { client: created, adminProfile } = await createProvisionedClient(t.db, name);
  const access = `acme.${unique()}`;
  const user = await createUser(t.db, {
    access,
    password: 'acme-password',
    memberships: [{ clientId: created.rota_clients_id, profileId: adminProfile.profiles_id }],
  });
  const token = await signIn(t.app, access, 'acme-password');
  return {
    clientId: created.rota_clients_id,
    name,
    adminProfileId: adminProfile.profiles_id,
    usersId: user.users_id,
    access,
    token,
    as: client(t.app, { token, lang: options.lang ?? 'en' }),
  };
}

/** Creates a user through the API and answers it. */
export async function createUserVia(as: As, body: object) {
  const res = await as.post(`${USERS}/create`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { users_id: number; access: string; email: string };
}

export async function auditOf(db: Db, entity: string, entityId?: number | string) {
  return db
    .select()
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.entity, entity),
        entityId === undefined ? undefined : eq(auditLogs.entity_id, String(entityId)),
      ),
    )
    .orderBy(desc(auditLogs.audit_logs_id));
}

/** No key anywhere in a stored value names a password or a hash. */
export function expectNoSecrets(value: unknown) {
  expect(JSON.stringify(value ?? null)).not.toMatch(/password"|password_hash|"hash"/i);
}
