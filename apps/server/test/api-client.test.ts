import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './generated/api.js';
import { API_TYPES_FILE, renderApiTypes } from './helpers/api-types.js';
import { ADMIN, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A TypeScript client generated from the served document (openapi-typescript's types,
 * openapi-fetch's calls) signs in and lists robots over real HTTP, and the committed types are
 * those of the document the server serves now.
 */

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await t?.close();
});

describe('the generated API client', () => {
  it('is generated from the document the server serves now', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const fresh = await renderApiTypes(response.json() as object);
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    // Not toEqual on 600 KB of text: the message says what to do.
    expect(
      fresh === committed,
      'test/generated/api.d.ts is stale: run `npm run generate:api-client -w @rota/server`',
    ).toBe(true);
  }, 60_000);

  it('signs in and lists robots with typed calls', async () => {
    const api = createClient<paths>({ baseUrl });
    const session = await api.POST('/api/user/api/auth/v1/session', {
      body: { access: ADMIN.access, password: ADMIN.password },
    });
    expect(session.response.status).toBe(200);
    const answer = session.data!;
    // The admin has no second factor: the answer is a session, not a challenge.
    if ('mfa_required' in answer) throw new Error('unexpected second-factor challenge');
    const signedIn = answer;
    expect(signedIn.email).toBe(ADMIN.email);
    const headers = { authorization: `Bearer ${signedIn.token}` };

    const clientId = signedIn.clients[0]!.rota_clients_id;
    const selected = await api.PUT('/api/user/api/v1/client_select', {
      headers,
      body: { users_id: signedIn.users_id, rota_clients_id_selected: clientId },
    });
    expect(selected.response.status).toBe(204);

    const created = await api.POST('/api/rota/robot/api/v1/create', {
      headers,
      body: { name: 'Typed client robot', executor: 'node main.js' },
    });
    expect(created.response.status).toBe(201);
    const robotId = created.data!.data.rota_robots_id;

    const listed = await api.POST('/api/rota/robot/api/v1/index', {
      headers,
      body: { search: 'Typed client', sort: 'name', order: 'asc' },
    });
    expect(listed.error).toBeUndefined();
    expect(listed.data!.meta.total).toBe(1);
    const [robot] = listed.data!.data;
    expect(robot).toMatchObject({
      rota_robots_id: robotId,
      name: 'Typed client robot',
      executor: 'node main.js',
      active: true,
      current_version: null,
    });

    // An error answer is typed too: the error schema's `code`.
    const refused = await api.POST('/api/rota/robot/api/v1/index', { body: {} });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe('unauthorized');
  });
});
