import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../src/db/seed.js';
import { buildApp, type App } from '../src/http/app.js';
import { FakeClock } from '../src/lib/clock.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { SWEEP_GRACE_MS } from '../src/modules/blobs/sweeper.js';
import { openTestDatabase } from './helpers/database.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, signIn } from './helpers/test-app.js';

/**
 * Temp files of uploads a crash interrupted: every one written before the server began to boot
 * goes at start, before it listens; while it runs, the sweep takes those untouched for the grace
 * period and never one an upload is still streaming into. Real files, the app's clock.
 */
const BOOT = new Date('2031-03-04T05:06:07Z');
const at = (offsetMs: number) => new Date(BOOT.getTime() + offsetMs);

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let dataDir: string;
const open: App[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-leftovers-'));
});
afterAll(async () => {
  for (const app of open) await app.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The app on the shared database and DATA_DIR, as a restart would find them. */
async function boot(clock: FakeClock) {
  const app = await buildApp({
    config: {
      publicUrl: 'http://rota.test',
      SMTP_URL: undefined,
      MAIL_FROM: 'r@test',
      TRUST_PROXY: false,
    },
    db: database.db,
    events: database.events,
    webRoot: null,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir,
    clock,
    engine: { loop: false },
    // The periodic sweep stays off: the test calls it when it has moved the clock.
    blobSweep: false,
  });
  open.push(app);
  return app;
}

async function tempFile(folder: string, name: string, modified: Date) {
  const dir = path.join(dataDir, folder);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, 'half an upload');
  await utimes(file, modified, modified);
  return file;
}

const listing = async (folder: string) =>
  (await readdir(path.join(dataDir, folder)).catch(() => [] as string[])).sort();

describe('temp files of interrupted uploads', () => {
  it('go at start when written before the boot, however young; the rest wait', async () => {
    // A crash a second before this boot, in each folder an upload writes aside in.
    await tempFile('packages/tmp', 'crashed.part', at(-1000));
    await tempFile('packages', '.blob.part', at(-1000));
    await tempFile('avatars', 'crashed.part', at(-1000));
    // Written after the boot began: someone's, not a leftover.
    await tempFile('packages/tmp', 'after-boot.part', at(1000));
    // Not a temp file at all.
    await tempFile('packages/tmp', 'notes.txt', at(-SWEEP_GRACE_MS * 10));
    const clock = new FakeClock(BOOT);
    const app = await boot(clock);
    expect(await listing('packages/tmp')).toContain('crashed.part');
    await app.ready();
    expect(await listing('packages/tmp')).toEqual(['after-boot.part', 'notes.txt']);
    expect(await listing('packages')).not.toContain('.blob.part');
    expect(await listing('avatars')).toEqual([]);

    // While it runs: an hour untouched by the app's clock, not a second less.
    clock.set(at(1000 + SWEEP_GRACE_MS - 1));
    expect((await app.services.blobSweeper.sweep()).temp).toEqual([]);
    clock.set(at(1000 + SWEEP_GRACE_MS + 1));
    const swept = await app.services.blobSweeper.sweep();
    expect(swept.temp.map((f) => path.basename(f))).toEqual(['after-boot.part']);
    expect(await listing('packages/tmp')).toEqual(['notes.txt']);
    await app.close();
    open.pop();
  });

  it('never take the file of an upload still streaming in, at any sweep, and a restart takes what it left', async () => {
    // The upload writes its file by the machine's time: the app's clock starts there.
    const clock = new FakeClock(new Date());
    const app = await boot(clock);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
    const robot = await createRobot(admin, 'Leftovers robot');
    const token = admin.authorization!;

    // An upload whose body has begun and not ended: its temp file exists and grows.
    const boundary = 'leftovers-boundary';
    const head =
      `--${boundary}\r\ncontent-disposition: form-data; name="rota_robots_id"\r\n\r\n${robot}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="version"\r\n\r\n1\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="p.zip"\r\n` +
      'content-type: application/zip\r\n\r\n';
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/rota/robot/version/api/v1/create',
      headers: {
        authorization: token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    const ended = new Promise<void>((resolve) => {
      upload.on('error', () => resolve());
      upload.on('response', (res) => res.resume().on('end', resolve));
    });
    upload.write(head);
    upload.write(randomBytes(256 * 1024));
    let parts: string[] = [];
    while (
      (parts = (await listing('packages/tmp')).filter((n) => n.endsWith('.part'))).length === 0
    ) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(parts).toHaveLength(1);

    // The sweep, as often as it likes, leaves the file of an upload still streaming in.
    try {
      for (let i = 0; i < 3; i++) {
        upload.write(randomBytes(64 * 1024));
        expect((await app.services.blobSweeper.sweep()).temp).toEqual([]);
        expect(await listing('packages/tmp')).toContain(parts[0]);
      }
    } finally {
      upload.destroy();
    }

    // The server dies with the upload half done, leaving the file as a SIGKILL would (a closed
    // app cleans up after its own uploads, so the file is put back as the crash left it).
    await ended;
    await app.close();
    open.pop();
    await tempFile('packages/tmp', 'killed-mid-upload.part', clock.now());

    // The next boot, a moment later: the leftover goes before the server listens.
    clock.advance(5000);
    const restarted = await boot(clock);
    await restarted.ready();
    expect((await listing('packages/tmp')).filter((n) => n.endsWith('.part'))).toEqual([]);
  });
});
