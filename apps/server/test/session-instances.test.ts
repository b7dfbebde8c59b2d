import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  AUTH,
  client,
  createTwoInstances,
  signIn,
  type TestApp,
} from './helpers/test-app.js';

/**
 * The session check is one prepared statement a request and no cache: a session
 * ended on one instance is refused at once by every instance, with no window of grace.
 */
describe.skipIf(!process.env.DATABASE_URL)('a session ended on one instance', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is refused at once on this instance and on the other', async () => {
    const token = await signIn(first.app, ADMIN.access, ADMIN.password);
    const here = client(first.app, { token });
    const there = client(second.app, { token });
    // Both instances have read (and prepared) the session check for this token.
    expect((await here.post(`${AUTH}/me`)).status).toBe(200);
    expect((await there.post(`${AUTH}/me`)).status).toBe(200);
    expect((await there.post('/api/rota/robot/api/v1/index', {})).status).toBe(200);

    expect((await here.post(`${AUTH}/logout`)).status).toBeLessThan(300);
    expect((await here.post(`${AUTH}/me`)).status).toBe(401);
    expect((await there.post(`${AUTH}/me`)).status).toBe(401);
    expect((await there.post('/api/rota/robot/api/v1/index', {})).status).toBe(401);
  });

  it('is refused at once when revoked from another session of the user', async () => {
    const kept = await signIn(first.app, ADMIN.access, ADMIN.password);
    const ended = await signIn(second.app, ADMIN.access, ADMIN.password);
    expect((await client(second.app, { token: ended }).post(`${AUTH}/me`)).status).toBe(200);
    const revoke = await client(first.app, { token: kept }).post(`${AUTH}/sessions/revoke-others`);
    expect(revoke.status, JSON.stringify(revoke.body)).toBeLessThan(300);
    expect((await client(second.app, { token: ended }).post(`${AUTH}/me`)).status).toBe(401);
    expect((await client(first.app, { token: ended }).post(`${AUTH}/me`)).status).toBe(401);
    expect((await client(first.app, { token: kept }).post(`${AUTH}/me`)).status).toBe(200);
  });
});
