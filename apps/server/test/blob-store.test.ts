import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobIntegrityError } from '../src/modules/blobs/blob-store.js';
import { BLOB_CHUNK_BYTES, PostgresBlobStore } from '../src/modules/blobs/postgres-blob-store.js';
import { SWEEP_GRACE_MS } from '../src/modules/blobs/sweeper.js';
import { zip } from './helpers/archives.js';
import { multipart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

const VERSIONS = '/api/rota/robot/version/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
const PACKAGES = '/api/rota/package/api/v1';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let t: TestApp;
let token: string;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app, ADMIN.access, ADMIN.password);
  admin = client(t.app, { token });
});
afterAll(() => t.close());

async function uploadVersion(robot: number, version: string, data: Buffer) {
  const { payload, contentType } = multipart(
    { rota_robots_id: robot, version },
    { name: 'p.zip', data },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `${VERSIONS}/create`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.rota_robot_versions_id as number;
}

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Makes a kept blob look untouched for two hours, whichever backend keeps it. */
async function age(kind: 'package' | 'avatar', name: string) {
  const { blobs } = t.app.services;
  if (blobs.backend === 'postgres') {
    await t.db.execute(
      sql`update blobs set touched_at = now() - interval '2 hours' where kind = ${kind} and name = ${name}`,
    );
  } else {
    const folder = kind === 'package' ? 'packages' : 'avatars';
    const past = new Date(Date.now() - 2 * SWEEP_GRACE_MS);
    await utimes(path.join(t.dataDir, folder, name), past, past);
  }
}

describe('blob store and orphan sweep', () => {
  it('keeps packages where the database says: disk on PGlite, PostgreSQL otherwise', () => {
    expect(t.app.services.blobs.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'disk');
  });

  it('sweeps packages deleted from the feed, blobs nobody uses and crashed uploads, after the grace period only', async () => {
    const { blobs, blobSweeper } = t.app.services;
    const goneRobot = await createRobot(admin, 'Swept robot');
    const keptRobot = await createRobot(admin, 'Kept robot');
    const gone = zip([{ name: 'gone.js', data: 'gone' }]);
    const kept = zip([{ name: 'kept.js', data: 'kept' }]);
    const goneVersion = await uploadVersion(goneRobot, '1', gone);
    const keptVersion = await uploadVersion(keptRobot, '1', kept);
    // A robot's delete leaves its package in the feed; the package's delete takes its versions
    // without a word to the store.
    const [{ id: gonePackage }] = (
      (await t.db.execute(
        sql`select rota_packages_id as id from rota_robot_versions where rota_robot_versions_id = ${goneVersion}`,
      )) as unknown as { rows: { id: number }[] }
    ).rows as [{ id: number }];
    expect((await admin.post(`${ROBOTS}/delete`, { id: goneRobot })).status).toBe(202);
    const removed = await admin.post(`${PACKAGES}/delete`, { id: gonePackage });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    // Bytes kept with no row ever written (a crash between the two, another instance's).
    const stray = randomBytes(3000);
    await blobs.put(t.db, 'package', sha256(stray), {
      sha256: sha256(stray),
      size: stray.length,
      data: stray,
    });
    // Temp files of uploads that died: one long ago, one still being written.
    const tmp = path.join(t.dataDir, 'packages', 'tmp');
    await mkdir(tmp, { recursive: true });
    await writeFile(path.join(tmp, 'crashed.part'), 'half');
    await writeFile(path.join(tmp, 'streaming.part'), 'in flight');
    const past = new Date(Date.now() - 2 * SWEEP_GRACE_MS);
    await utimes(path.join(tmp, 'crashed.part'), past, past);

    // Within the grace period nothing but the old temp file goes.
    const early = await blobSweeper.sweep();
    expect(early.blobs).toEqual([]);
    expect(early.temp.map((f) => path.basename(f))).toEqual(['crashed.part']);
    expect(await blobs.names('package')).toEqual(
      expect.arrayContaining([sha256(gone), sha256(kept), sha256(stray)]),
    );
    expect(await readdir(tmp)).toEqual(['streaming.part']);

    await age('package', sha256(gone));
    await age('package', sha256(stray));
    await age('package', sha256(kept));
    const swept = await blobSweeper.sweep();
    expect(swept.blobs).toEqual(
      expect.arrayContaining([
        { kind: 'package', name: sha256(gone) },
        { kind: 'package', name: sha256(stray) },
      ]),
    );
    expect(swept.blobs).toHaveLength(2);
    const left = await blobs.names('package');
    expect(left).not.toContain(sha256(gone));
    expect(left).not.toContain(sha256(stray));
    // In use, however old: never swept, and still served.
    expect(left).toContain(sha256(kept));
    const got = await t.app.inject({
      method: 'POST',
      url: `${VERSIONS}/download`,
      payload: { id: keptVersion },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(kept)).toBe(true);
    expect((await blobSweeper.sweep()).blobs).toEqual([]);
  });

  it('renews an orphan an upload reuses, so the sweep leaves it to the new version', async () => {
    const { blobs, blobSweeper } = t.app.services;
    const robot = await createRobot(admin, 'Reusing robot');
    const data = zip([{ name: 'again.js', data: 'same bytes again' }]);
    const first = await uploadVersion(robot, '1', data);
    await uploadVersion(robot, '2', zip([{ name: 'other.js', data: 'other' }]));
    // Deleted at the database level, as a crashed delete would leave it: the blob stays.
    await t.db.execute(
      sql`delete from rota_robot_versions where rota_robot_versions_id = ${first}`,
    );
    await age('package', sha256(data));
    // The same bytes uploaded again reuse the blob, and renew it.
    await uploadVersion(robot, '3', data);
    await t.db.execute(
      sql`delete from rota_robot_versions where rota_robots_id = ${robot} and version = '3'`,
    );
    expect((await blobSweeper.sweep()).blobs).toEqual([]);
    expect(await blobs.names('package')).toContain(sha256(data));
    await age('package', sha256(data));
    expect((await blobSweeper.sweep()).blobs).toEqual([{ kind: 'package', name: sha256(data) }]);
  });

  it('sweeps pictures nobody shows and keeps the ones shown', async () => {
    const { blobs, blobSweeper } = t.app.services;
    const { payload, contentType } = multipart(
      {},
      { field: 'avatar', name: 'me.png', type: 'image/png', data: PNG },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/api/v1/avatar',
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const shown = (res.json().data.avatar as string).split('/').pop()!;
    // A picture kept whose user row was never updated (the request died in between).
    const lost = Buffer.concat([Buffer.from('GIF89a'), randomBytes(100)]);
    const lostName = `${sha256(lost)}.gif`;
    await blobs.put(t.db, 'avatar', lostName, {
      sha256: sha256(lost),
      size: lost.length,
      data: lost,
    });
    expect(await blobs.names('avatar')).toEqual(expect.arrayContaining([shown, lostName]));
    await age('avatar', shown);
    await age('avatar', lostName);
    expect((await blobSweeper.sweep()).blobs).toEqual([{ kind: 'avatar', name: lostName }]);
    const served = await t.app.inject({ method: 'GET', url: `/api/user/api/v1/avatar/${shown}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/user/api/v1/avatar/${lostName}`,
    });
    expect(missing.statusCode).toBe(404);
  });
});

/**
 * The PostgreSQL store itself, on whatever database the tests run (PGlite speaks the same SQL):
 * chunked writes, hashing on the way in and on the way out.
 */
describe('blobs in the database', () => {
  it('writes in 1 MiB chunks, reads back the same bytes, and refuses bytes that do not match', async () => {
    const store = new PostgresBlobStore(t.db);
    const data = randomBytes(2 * BLOB_CHUNK_BYTES + 12345);
    const file = path.join(t.dataDir, 'big.bin');
    await writeFile(file, data);
    const name = sha256(data);
    await store.put(t.db, 'package', name, { sha256: name, size: data.length, file });
    const [chunks] = (
      (await t.db.execute(
        sql`select count(*)::int as n, max(length(c.data))::int as biggest
              from blob_chunks c join blobs b using (blobs_id)
             where b.kind = 'package' and b.name = ${name}`,
      )) as unknown as { rows: { n: number; biggest: number }[] }
    ).rows;
    expect(chunks).toEqual({ n: 3, biggest: BLOB_CHUNK_BYTES });
    const opened = await store.open('package', name);
    expect(opened?.size).toBe(data.length);
    expect((await read(opened!.stream)).equals(data)).toBe(true);

    // Bytes that are not what their sha256 says leave nothing behind.
    const liar = randomBytes(5000);
    const claimed = sha256(randomBytes(10));
    await expect(
      store.put(t.db, 'package', claimed, { sha256: claimed, size: liar.length, data: liar }),
    ).rejects.toBeInstanceOf(BlobIntegrityError);
    expect(await store.names('package')).not.toContain(claimed);

    // A chunk changed behind our back breaks the stream instead of serving wrong bytes.
    await t.db.execute(
      sql`update blob_chunks set data = ${randomBytes(BLOB_CHUNK_BYTES)}
           where seq = 1 and blobs_id = (select blobs_id from blobs where kind = 'package' and name = ${name})`,
    );
    const damaged = await store.open('package', name);
    await expect(read(damaged!.stream)).rejects.toBeInstanceOf(BlobIntegrityError);
    await store.remove(t.db, 'package', name);
    expect(await store.open('package', name)).toBeNull();
  });
});
