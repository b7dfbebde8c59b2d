import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint, SecretBox } from '../src/lib/secret-box.js';
import { MIGRATIONS_DIR, openDatabase } from '../src/db/client.js';
import { createPglite, openPglite } from '../src/db/pglite.js';
import { rotaParameters } from '../src/db/schema/index.js';
import { shortFingerprint } from '../src/db/backup/manifest.js';
import { markServerRunning } from '../src/db/backup/server-lock.js';
import { RestoreError, restoreBackup } from '../src/db/backup/restore-backup.js';
import { everyRow, runBackupCli, seedWorkload, sha256, type Workload } from './helpers/backup.js';
import { runNow } from './helpers/engine.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/**
 * Backup and restore of the embedded database: a running server's backup through its HTTP
 * endpoint and the CLI, restored by the CLI into a new folder, compared row by row; the
 * refusals. Runs in the embedded leg only (the PostgreSQL path is backup-postgres.test.ts).
 */
const embedded = !process.env.DATABASE_URL;

// Each test starts the CLI in processes of its own (tsx compiles it each time): slow on a busy machine.
describe.runIf(embedded)('backup of the embedded database', { timeout: 180_000 }, () => {
  let root: string;
  let t: TestApp;
  let base: string;
  let token: string;
  let work: Workload;
  const secretKey = randomBytes(32);
  let keyFile: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rota-backup-'));
    const dataDir = path.join(root, 'source');
    const database = await openDatabase({ dataDir, keyFingerprint: keyFingerprint(secretKey) });
    await database.migrate();
    t = await createTestApp({ database, dataDir, secretKey });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    token = await signIn(t.app, ADMIN.access, ADMIN.password);
    work = await seedWorkload(t, token);
    keyFile = path.join(root, 'secret.key');
    await writeFile(keyFile, secretKey.toString('hex') + '\n', { mode: 0o600 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await rm(root, { recursive: true, force: true });
  });

  const openRestored = async (dir: string) => createPglite({ dataDir: path.join(dir, 'pglite') });
  const sourceQuery = (text: string) =>
    t.db.execute(text as never) as unknown as Promise<{ rows: Record<string, unknown>[] }>;

  it('backs up a server while runs go on, restores into a new folder, every table equal', async () => {
    const archive = path.join(root, 'running.tar.gz');
    const as = client(t.app, { token });
    // Runs keep being queued while the backup is taken: the archive must hold a state some
    // instant had, whatever the CLI's request lands between.
    let backingUp = true;
    const queuing = (async () => {
      let queued = 0;
      while (backingUp) {
        await runNow(as, { id: work.robotId });
        queued += 1;
      }
      return queued;
    })();
    const backup = await runBackupCli(['backup', '--out', archive], {
      ROTA_URL: base,
      ROTA_TOKEN: token,
    }).finally(() => (backingUp = false));
    const queuedMeanwhile = await queuing;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(queuedMeanwhile).toBeGreaterThan(0);

    const target = path.join(root, 'restored-running');
    const restore = await runBackupCli(['restore', '--in', archive, '--key-file', keyFile], {
      DATA_DIR: target,
    });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored the backup`);
    const pglite = await openRestored(target);
    try {
      const counts = await pglite.query<{ runs: number; unmatched: number; processing: number }>(
        `select (select count(*)::int from rota_executions) as runs,
                (select count(*)::int from rota_executions e
                  where e.attempts <> (select count(*) from rota_execution_attempts a
                                        where a.rota_executions_id = e.rota_executions_id)
                ) as unmatched,
                (select count(*)::int from rota_executions where status = 'processing') as processing`,
      );
      const restored = counts.rows[0]!;
      // A consistent instant: every run's attempts are there, and the runs lie between those
      // queued before the backup and all of them.
      expect(restored.unmatched).toBe(0);
      expect(restored.runs).toBeGreaterThanOrEqual(work.runs.length);
      expect(restored.runs).toBeLessThanOrEqual(work.runs.length + queuedMeanwhile);
      expect(restored.processing).toBe(1);
      // Every restored run is exactly the source's run (but for the lease of the one in
      // progress, which the server keeps renewing).
      const withoutLease = (row: string) => {
        const { lease_expires_at: _renewed, ...rest } = JSON.parse(row) as Record<string, unknown>;
        return JSON.stringify(rest);
      };
      const source = new Set(
        (await everyRow(sourceQuery)).get('public.rota_executions')!.map(withoutLease),
      );
      const copied = (await everyRow((q) => pglite.query(q))).get('public.rota_executions')!;
      expect(copied.map(withoutLease).filter((row) => !source.has(row))).toEqual([]);
    } finally {
      await pglite.close();
    }
    // The key file came along, so a server started on the new folder opens the secrets.
    expect((await readFile(path.join(target, 'secret.key'), 'utf8')).trim()).toBe(
      secretKey.toString('hex'),
    );
  });

  it('restores a quiet server to every row of every table, blobs and secrets included', async () => {
    const archive = path.join(root, 'quiet.tar.gz');
    // The run in progress ends first: the server renews a running run's lease on its own.
    const [running] = work.runs;
    expect((await work.agent.finish(running!, 1, 'success', 0)).status).toBe(200);
    // The archive must be one of the two states, table by table.
    const before = await everyRow(sourceQuery);
    const response = await fetch(`${base}/api/rota/backup/api/v1/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    await writeFile(archive, Buffer.from(await response.arrayBuffer()));
    const after = await everyRow(sourceQuery);

    const target = path.join(root, 'restored-quiet');
    await restoreBackup({
      archive,
      target,
      secretKey,
      writeKeyFile: true,
      forceOtherKey: false,
      migrationsFolder: MIGRATIONS_DIR,
    });
    const restoredDb = await openPglite(await openRestored(target));
    const restored = await createTestApp({ database: restoredDb, dataDir: target, secretKey });
    try {
      const rows = await everyRow(
        (q) =>
          restored.db.execute(q as never) as unknown as Promise<{
            rows: Record<string, unknown>[];
          }>,
      );
      expect([...rows.keys()]).toEqual([...before.keys()]);
      expect(rows.get('public.rota_robot_versions')).toHaveLength(1);
      for (const [table, list] of before) {
        const restoredRows = JSON.stringify(rows.get(table));
        expect(
          [JSON.stringify(list), JSON.stringify(after.get(table))],
          `${table} is neither the state before nor after the backup`,
        ).toContain(restoredRows);
      }

      // The restored server answers what the old one did: the package's bytes, the secret.
      const as = client(restored.app, {
        token: await signIn(restored.app, ADMIN.access, ADMIN.password),
      });
      const download = await restored.app.inject({
        method: 'POST',
        url: '/api/rota/robot/version/api/v1/download',
        payload: { id: work.versionId },
        headers: { authorization: `Bearer ${as.authorization!.slice(7)}` },
      });
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(work.packageBytes));
      const [parameter] = await restored.db
        .select()
        .from(rotaParameters)
        .where(eq(rotaParameters.rota_parameters_id, work.parameterId));
      expect(new SecretBox(secretKey).open(parameter!.password_sealed!)).toBe(work.password);
      const robots = await as.post('/api/rota/robot/api/v1/index', {});
      expect(robots.body.data.map((r: { name: string }) => r.name)).toContain('Backup robot');
    } finally {
      await restored.close();
    }
  });

  it('refuses another key, naming both fingerprints, and leaves no folder behind', async () => {
    const archive = path.join(root, 'quiet.tar.gz');
    const other = randomBytes(32);
    const target = path.join(root, 'restored-other-key');
    const refusal = await restoreBackup({
      archive,
      target,
      secretKey: other,
      writeKeyFile: false,
      forceOtherKey: false,
      migrationsFolder: MIGRATIONS_DIR,
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RestoreError);
    expect((refusal as RestoreError).reason).toBe('key_mismatch');
    expect((refusal as Error).message).toContain('fingerprint mismatch');
    expect((refusal as Error).message).toContain(shortFingerprint(keyFingerprint(secretKey)));
    expect((refusal as Error).message).toContain(shortFingerprint(keyFingerprint(other)));
    expect((await readdir(root)).filter((name) => name.includes('restored-other-key'))).toEqual([]);

    // The CLI says the same, and without any key says which key it needs.
    const cli = await runBackupCli(['restore', '--in', archive], {
      DATA_DIR: target,
      ROTA_SECRET_KEY: other.toString('hex'),
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('Secret key fingerprint mismatch');
    const keyless = await runBackupCli(['restore', '--in', archive], { DATA_DIR: target });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain(shortFingerprint(keyFingerprint(secretKey)));

    // Forced, it restores: the data comes back, the secrets stay sealed to the old key.
    const forced = await runBackupCli(['restore', '--in', archive, '--force-other-key'], {
      DATA_DIR: target,
      ROTA_SECRET_KEY: other.toString('hex'),
    });
    expect(forced.code).toBe(0);
    const pglite = await openRestored(target);
    const sealed = await pglite.query<{ password_sealed: string }>(
      `select password_sealed from rota_parameters where rota_parameters_id = ${work.parameterId}`,
    );
    await pglite.close();
    expect(() => new SecretBox(other).open(sealed.rows[0]!.password_sealed)).toThrow();
  });

  it('refuses a folder that is not empty and leaves it as it was', async () => {
    const target = path.join(root, 'busy');
    await mkdir(target);
    await writeFile(path.join(target, 'notes.txt'), 'mine');
    const cli = await runBackupCli(
      ['restore', '--in', path.join(root, 'quiet.tar.gz'), '--key-file', keyFile],
      { DATA_DIR: target },
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('is not empty');
    expect(await readdir(target)).toEqual(['notes.txt']);
    expect((await readdir(root)).filter((name) => name.includes('.busy.restoring'))).toEqual([]);
  });

  it('backs up offline when no server runs, through the server that holds the folder', async () => {
    // The folder restored from the running server: no server holds it.
    const idle = path.join(root, 'restored-running');
    const offline = path.join(root, 'offline.tar.gz');
    const done = await runBackupCli(['backup', '--out', offline], { DATA_DIR: idle });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(shortFingerprint(keyFingerprint(secretKey)));
    const again = path.join(root, 'restored-offline');
    await restoreBackup({
      archive: offline,
      target: again,
      secretKey,
      writeKeyFile: false,
      forceOtherKey: false,
      migrationsFolder: MIGRATIONS_DIR,
    });
    const pglite = await openRestored(again);
    const robots = await pglite.query<{ n: number }>('select count(*)::int as n from rota_robots');
    await pglite.close();
    expect(robots.rows[0]!.n).toBe(1);

    // The running server's folder: the command must not open a database another process
    // holds, and asks that server, with the token it left in the folder. This test process
    // plays the server that wrote the lock, as main.ts does.
    const release = await markServerRunning(t.dataDir, base);
    const wrong = await fetch(`${base}/api/rota/backup/api/v1/create`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-token' },
    });
    expect(wrong.status).toBe(401);
    const held = await runBackupCli(['backup', '--out', path.join(root, 'held.tar.gz')], {
      DATA_DIR: t.dataDir,
    });
    await release();
    expect(held.stderr).toBe('');
    expect(held.stdout).toContain(`by the server at ${base}`);

    const anonymous = await fetch(`${base}/api/rota/backup/api/v1/create`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    // A personal API key never carries platform administration.
    const key = await client(t.app, { token }).post('/api/user/apikey/api/v1/create', {
      name: 'backups',
    });
    const withKey = await fetch(`${base}/api/rota/backup/api/v1/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.data.key as string}` },
    });
    expect(withKey.status).toBe(403);
  });
});
