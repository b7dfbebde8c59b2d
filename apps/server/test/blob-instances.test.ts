import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/http/app.js';
import { zip } from './helpers/archives.js';
import { AGENT } from './helpers/engine.js';
import { multipart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTwoInstances, signIn, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const VERSIONS = '/api/rota/robot/version/api/v1';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Two server instances on one PostgreSQL, each with its own DATA_DIR (they share only the
 * database): what one receives, the other serves. PGlite is one process, so this needs
 * DATABASE_URL; the disk store is what PGlite runs everywhere else.
 */
describe.skipIf(!process.env.DATABASE_URL)('packages and pictures across two instances', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('serves a package uploaded through one instance from the other, to agents and the console', async () => {
    const token = await signIn(first.app, ADMIN.access, ADMIN.password);
    const admin = client(first.app, { token });
    const robot = await createRobot(admin, 'Shared package robot');
    const vm = await createVm(admin, 'Shared VM');
    const agent = await createAgent(admin, 'Shared agent', vm);
    // Several 1 MiB chunks, and a last one that is not full.
    const data = zip([
      { name: 'main.js', data: 'console.log("shared")' },
      { name: 'blob.bin', data: randomBytes(3 * 1024 * 1024 + 777) },
    ]);
    const { payload, contentType } = multipart(
      { rota_robots_id: robot, version: '1.0.0' },
      { name: 'shared.zip', data },
    );
    const created = await first.app.inject({
      method: 'POST',
      url: `${VERSIONS}/create`,
      payload,
      headers: { 'content-type': contentType, ...bearer(token) },
    });
    expect(created.statusCode).toBe(201);
    const version = created.json().data;
    expect(version.sha256).toBe(sha256(data));
    expect(first.app.services.blobs.backend).toBe('postgres');

    const fromAgent = await second.app.inject({
      method: 'GET',
      url: `${AGENT}/package/${version.sha256}`,
      headers: bearer(agent.token),
    });
    expect(fromAgent.statusCode).toBe(200);
    expect(fromAgent.headers['content-length']).toBe(String(data.length));
    expect(fromAgent.headers['x-content-sha256']).toBe(sha256(data));
    expect(sha256(fromAgent.rawPayload)).toBe(sha256(data));

    const secondToken = await signIn(second.app, ADMIN.access, ADMIN.password);
    const fromConsole = await second.app.inject({
      method: 'POST',
      url: `${VERSIONS}/download`,
      payload: { id: version.rota_robot_versions_id },
      headers: bearer(secondToken),
    });
    expect(fromConsole.statusCode).toBe(200);
    expect(fromConsole.headers['content-type']).toBe('application/zip');
    expect(fromConsole.headers['x-content-sha256']).toBe(sha256(data));
    expect(fromConsole.rawPayload.equals(data)).toBe(true);

    // Deleted through the second, gone for the first.
    const removed = await client(second.app, { token: secondToken }).post(`${VERSIONS}/delete`, {
      id: version.rota_robot_versions_id,
    });
    expect(removed.status).toBe(202);
    const after = await first.app.inject({
      method: 'GET',
      url: `${AGENT}/package/${version.sha256}`,
      headers: bearer(agent.token),
    });
    expect(after.statusCode).toBe(404);
    expect(await first.app.services.blobs.names('package')).not.toContain(version.sha256);
  });

  it('serves a picture uploaded through one instance from the other', async () => {
    const token = await signIn(first.app, ADMIN.access, ADMIN.password);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(2000),
    ]);
    const { payload, contentType } = multipart(
      {},
      { field: 'avatar', name: 'me.png', type: 'image/png', data: png },
    );
    const saved = await first.app.inject({
      method: 'POST',
      url: '/api/user/api/v1/avatar',
      payload,
      headers: { 'content-type': contentType, ...bearer(token) },
    });
    expect(saved.statusCode).toBe(200);
    const url = saved.json().data.avatar as string;
    const served = await (second.app as App).inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
  });
});
