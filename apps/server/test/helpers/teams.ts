import { expect } from 'vitest';
import type { Language, Permission } from '@rota/contract';
import { ALL_PERMISSIONS, createProfile, createUser } from './fixtures.js';
import { client, signIn, type TestApp } from './test-app.js';

export const TEAMS = '/api/teams/api/v1';
export const TEAM_ROBOTS = '/api/teams/robots/api/v1';
export const TEAM_USERS = '/api/teams/users/api/v1';

type Caller = ReturnType<typeof client>;

/** A signed-in user of one client holding `permissions` there (every one by default). */
export async function signedInUser(
  t: TestApp,
  clientId: number,
  access: string,
  options: { permissions?: readonly Permission[]; lang?: Language } = {},
) {
  const profile = await createProfile(
    t.db,
    clientId,
    `Profile of ${access}`,
    options.permissions ?? ALL_PERMISSIONS,
  );
  const user = await createUser(t.db, {
    access,
    password: `${access}-password`,
    name: access,
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  const token = await signIn(t.app, access, `${access}-password`);
  return {
    id: user.users_id,
    token,
    as: client(t.app, { token, lang: options.lang ?? 'en' }),
  };
}

/** A team made through the API, with its robots and users. */
export async function createTeam(
  as: Caller,
  name: string,
  members: { robots?: number[]; users?: number[] } = {},
): Promise<number> {
  const res = await as.post(`${TEAMS}/create`, { name, ...members });
  expect(res.status).toBe(201);
  return res.body.data.teams_id as number;
}
