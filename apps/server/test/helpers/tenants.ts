import type { Language, Permission } from '@rota/contract';
import { createClient, createProfile, createUser, findClient } from './fixtures.js';
import { ADMIN, client, signIn, type TestApp } from './test-app.js';

/**
 * The cast every resource test needs: the seeded admin of "Default", the admin of another
 * client ("Other"), and a member of "Default" holding only `permissions`.
 */
export async function setUpTenants(
  t: TestApp,
  options: { permissions?: readonly Permission[]; lang?: Language } = {},
) {
  const def = await findClient(t.db, 'Default');
  const other = await createClient(t.db, `Other ${Math.random().toString(36).slice(2, 8)}`);
  const otherAdmins = await createProfile(t.db, other.rota_clients_id, 'Administrator', [
    'ROBOS.LIST',
    'ROBOS.CREATE',
    'ROBOS.UPDATE',
    'ROBOS.DELETE',
    'ATIVIDADES.LIST',
    'ATIVIDADES.CREATE',
    'ATIVIDADES.UPDATE',
    'ATIVIDADES.DELETE',
    'AGENDAMENTOS.LIST',
    'AGENDAMENTOS.CREATE',
    'AGENDAMENTOS.UPDATE',
    'AGENDAMENTOS.DELETE',
    'PARAMETROS.LIST',
    'PARAMETROS.CREATE',
    'PARAMETROS.UPDATE',
    'PARAMETROS.DELETE',
    'AGENTES.LIST',
    'AGENTES.CREATE',
    'AGENTES.UPDATE',
    'AGENTES.DELETE',
    'HISTORIC.LIST',
    'HISTORIC.UPDATE',
  ]);
  const limited = await createProfile(
    t.db,
    def.rota_clients_id,
    `Limited ${other.rota_clients_id}`,
    options.permissions ?? [],
  );
  const suffix = other.rota_clients_id;
  await createUser(t.db, {
    access: `other${suffix}`,
    password: 'other-password',
    memberships: [{ clientId: other.rota_clients_id, profileId: otherAdmins.profiles_id }],
  });
  await createUser(t.db, {
    access: `limited${suffix}`,
    password: 'limited-password',
    memberships: [{ clientId: def.rota_clients_id, profileId: limited.profiles_id }],
  });
  const lang = options.lang ?? 'en';
  const adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
  const otherToken = await signIn(t.app, `other${suffix}`, 'other-password');
  return {
    adminToken,
    otherToken,
    defaultClientId: def.rota_clients_id,
    otherClientId: other.rota_clients_id,
    admin: client(t.app, { token: adminToken, lang }),
    other: client(t.app, { token: otherToken, lang }),
    limited: client(t.app, {
      token: await signIn(t.app, `limited${suffix}`, 'limited-password'),
      lang,
    }),
  };
}

export type Tenants = Awaited<ReturnType<typeof setUpTenants>>;
