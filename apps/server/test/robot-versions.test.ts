import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROBOT_PACKAGE_MAX_ENTRIES } from '@rota/contract';
import { buildApp, type App } from '../src/http/app.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { tar, tarGz, zip } from './helpers/archives.js';
import { multipart, type FilePart } from './helpers/multipart.js';
import { ADMIN, PUBLIC_URL, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/robot/version/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
let t: TestApp;
let c: Tenants;
const tokens = { admin: '', other: '', limited: '' };

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  const suffix = c.otherClientId;
  tokens.admin = await signIn(t.app, ADMIN.access, ADMIN.password);
  tokens.other = await signIn(t.app, `other${suffix}`, 'other-password');
  tokens.limited = await signIn(t.app, `limited${suffix}`, 'limited-password');
});
afterAll(() => t.close());

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const small = zip([{ name: 'main.js', data: 'console.log("hello")' }]);

async function upload(
  fields: Record<string, string | number>,
  file?: FilePart,
  options: { token?: string; lang?: 'en' | 'pt'; app?: App } = {},
) {
  const { payload, contentType } = multipart(fields, file);
  const response = await (options.app ?? t.app).inject({
    method: 'POST',
    url: `${B}/create`,
    payload,
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${options.token ?? tokens.admin}`,
      'accept-language': options.lang ?? 'en',
    },
  });
  return { status: response.statusCode, body: response.json() };
}

function download(id: number, token = tokens.admin) {
  return t.app.inject({
    method: 'POST',
    url: `${B}/download`,
    payload: { id },
    headers: { authorization: `Bearer ${token}` },
  });
}

/**
 * The packages the blob store keeps (files under DATA_DIR/packages on PGlite, rows on
 * PostgreSQL) and the temp files uploads left in DATA_DIR/packages/tmp.
 */
async function packagesOnDisk() {
  const stored = await t.app.services.blobs.names('package');
  const temp = await readdir(path.join(t.dataDir, 'packages', 'tmp')).catch(() => [] as string[]);
  return { stored, temp };
}

async function storedBytes(sha: string): Promise<Buffer> {
  const opened = await t.app.services.blobs.open('package', sha);
  if (!opened) throw new Error(`package ${sha} is not stored`);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('robot versions', () => {
  it('uploads a zip and a tar.gz, keeps them by sha256 and downloads the same bytes', async () => {
    const robot = await createRobot(c.admin, 'Packaged robot');
    const zipped = zip([
      { name: 'main.js', data: 'console.log("v1")' },
      { name: 'lib/', data: '' },
      { name: 'lib/util.js', data: 'module.exports = 1;' },
    ]);
    const created = await upload(
      { rota_robots_id: robot, version: '1.0.0', notes: 'First cut' },
      { name: 'robot-1.0.0.zip', data: zipped },
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      rota_robots_id: robot,
      version: '1.0.0',
      notes: 'First cut',
      file_name: 'robot-1.0.0.zip',
      format: 'zip',
      sha256: sha256(zipped),
      size_bytes: zipped.length,
      current: false,
    });
    expect((await storedBytes(sha256(zipped))).equals(zipped)).toBe(true);
    expect(t.app.services.blobs.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'disk');

    const tarred = tarGz([
      { name: 'robot', type: '5' },
      { name: 'robot/main.py', data: 'print("v2")' },
      { name: 'robot/run.sh', data: 'python3 main.py' },
    ]);
    for (const [version, name] of [
      ['2.0.0', 'robot-2.0.0.tar.gz'],
      ['2.0.1', 'robot-2.0.1.TGZ'],
    ] as const) {
      const res = await upload({ rota_robots_id: robot, version }, { name, data: tarred });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ format: 'tar.gz', file_name: name, notes: null });
    }

    const id = created.body.data.rota_robot_versions_id;
    const got = await download(id);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/zip');
    expect(got.headers['content-disposition']).toBe('attachment; filename="robot-1.0.0.zip"');
    expect(got.headers['content-length']).toBe(String(zipped.length));
    expect(got.headers['x-content-sha256']).toBe(sha256(zipped));
    expect(got.rawPayload.equals(zipped)).toBe(true);

    const list = await c.admin.post(`${B}/index`, { rota_robots_id: robot });
    expect(list.body.data.map((v: { version: string }) => v.version)).toEqual([
      '2.0.1',
      '2.0.0',
      '1.0.0',
    ]);
    const tgz = await download(list.body.data[0].rota_robot_versions_id);
    expect(tgz.headers['content-type']).toBe('application/gzip');
    expect(tgz.rawPayload.equals(tarred)).toBe(true);
    // Two versions with the same bytes share one file; nothing is left in tmp.
    const disk = await packagesOnDisk();
    expect(disk.stored).toEqual(expect.arrayContaining([sha256(zipped), sha256(tarred)]));
    expect(disk.temp).toEqual([]);
  });

  it('takes packages over the 1 MB JSON body limit, and only there', async () => {
    const robot = await createRobot(c.admin, 'Big robot');
    const big = zip([{ name: 'blob.bin', data: randomBytes(1536 * 1024) }]);
    const res = await upload(
      { rota_robots_id: robot, version: '1' },
      { name: 'big.zip', data: big },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.size_bytes).toBe(big.length);

    // Multipart is parsed by this module alone; its JSON routes keep the 1 MB limit.
    const { payload, contentType } = multipart({ name: 'x', executor: 'y' });
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: `${ROBOTS}/create`,
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${tokens.admin}` },
    });
    expect(elsewhere.statusCode).toBe(415);
    const hugeJson = await c.admin.put(`${B}/update`, {
      id: res.body.data.rota_robot_versions_id,
      notes: 'n'.repeat(1024 * 1024),
    });
    expect(hugeJson.status).toBe(413);
  });

  it('makes a version current, rolls back to an older one, and keeps the current one', async () => {
    const robot = await createRobot(c.admin, 'Rollback robot');
    const ids: number[] = [];
    for (const version of ['1.0', '1.1']) {
      const data = zip([{ name: 'main.js', data: `// ${version}` }]);
      const res = await upload({ rota_robots_id: robot, version }, { name: 'p.zip', data });
      ids.push(res.body.data.rota_robot_versions_id);
    }
    const [v10, v11] = ids as [number, number];

    expect((await c.admin.put(`${B}/update`, { id: v11, current: true })).status).toBe(204);
    expect((await c.admin.post(`${B}/show`, { id: v11 })).body.data.current).toBe(true);
    const robotShown = await c.admin.post(`${ROBOTS}/show`, { id: robot });
    expect(robotShown.body.data.current_version).toEqual({
      rota_robot_versions_id: v11,
      version: '1.1',
    });

    const rollback = await c.admin.put(`${B}/update`, { id: v10, current: true, notes: 'Back' });
    expect(rollback.status).toBe(204);
    const list = await c.admin.post(`${B}/index`, { rota_robots_id: robot });
    expect(
      list.body.data.map((v: { version: string; current: boolean; notes: string | null }) => [
        v.version,
        v.current,
        v.notes,
      ]),
    ).toEqual([
      ['1.1', false, null],
      ['1.0', true, 'Back'],
    ]);

    const refused = await c.admin.post(`${B}/delete`, { id: v10 });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      {
        field: 'id',
        message: 'The current version cannot be deleted; make another one current first',
      },
    ]);
    expect((await c.admin.post(`${B}/show`, { id: v10 })).status).toBe(200);
  });

  it('removes the package file with the last version that uses it', async () => {
    const robotA = await createRobot(c.admin, 'Sharing robot A');
    const robotB = await createRobot(c.other, 'Sharing robot B');
    const data = zip([{ name: 'shared.js', data: 'shared bytes' }]);
    const mine = await upload({ rota_robots_id: robotA, version: '1' }, { name: 'a.zip', data });
    const theirs = await upload(
      { rota_robots_id: robotB, version: '1' },
      { name: 'b.zip', data },
      { token: tokens.other },
    );
    expect(theirs.status).toBe(201);
    const file = sha256(data);

    const removed = await c.admin.post(`${B}/delete`, {
      id: mine.body.data.rota_robot_versions_id,
    });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    // Another client's version still uses the same bytes.
    expect((await packagesOnDisk()).stored).toContain(file);
    const theirId = theirs.body.data.rota_robot_versions_id;
    expect((await c.other.post(`${B}/delete`, { id: theirId })).status).toBe(202);
    expect((await packagesOnDisk()).stored).not.toContain(file);
  });

  it('refuses a duplicate version of the same robot, whatever its case', async () => {
    const robot = await createRobot(c.admin, 'Versioned robot');
    const other = await createRobot(c.admin, 'Other versioned robot');
    const first = zip([{ name: 'a.js', data: 'a' }]);
    expect(
      (await upload({ rota_robots_id: robot, version: 'v1.0' }, { name: 'a.zip', data: first }))
        .status,
    ).toBe(201);
    const second = zip([{ name: 'b.js', data: 'b' }]);
    const before = await packagesOnDisk();
    const dup = await upload(
      { rota_robots_id: robot, version: 'V1.0' },
      { name: 'b.zip', data: second },
    );
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'version', message: 'This robot already has this version' },
    ]);
    expect(await packagesOnDisk()).toEqual(before);
    expect(
      (await upload({ rota_robots_id: other, version: 'v1.0' }, { name: 'b.zip', data: second }))
        .status,
    ).toBe(201);
  });

  it('says which parts are wrong, in the caller’s language', async () => {
    const en = await upload({ version: ' ' });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'Required robot' },
      { field: 'version', message: 'Required version' },
      { field: 'file', message: 'Required file' },
    ]);
    const pt = await upload({ rota_robots_id: 1, version: '1' }, undefined, { lang: 'pt' });
    expect(pt.body.errors).toEqual([{ field: 'file', message: 'Arquivo obrigatório' }]);
    const tooLong = await upload(
      { rota_robots_id: 1, version: 'x'.repeat(51), notes: 'n'.repeat(2001) },
      { name: 'p.zip', data: small },
    );
    expect(tooLong.body.errors).toEqual([
      { field: 'version', message: 'Too long' },
      { field: 'notes', message: 'Too long' },
    ]);
    const json = await c.admin.post(`${B}/create`, { rota_robots_id: 1, version: '1' });
    expect(json.status).toBe(415);
    const list = await c.admin.post(`${B}/index`, {});
    expect(list.body.errors).toEqual([{ field: 'rota_robots_id', message: 'Required robot' }]);
    const badUpdate = await c.admin.put(`${B}/update`, { id: 1, current: false });
    expect(badUpdate.body.errors).toEqual([{ field: 'current', message: 'Invalid value' }]);
  });

  it('refuses a wrong, corrupt or unsafe package and keeps neither a row nor a file', async () => {
    const robot = await createRobot(c.admin, 'Picky robot');
    const cases: [FilePart, string][] = [
      [{ name: 'robot.rar', data: randomBytes(300) }, 'The package must be a .zip or .tar.gz file'],
      [{ name: 'robot', data: small }, 'The package must be a .zip or .tar.gz file'],
      [
        { name: 'random.zip', data: randomBytes(4096) },
        'The package is corrupt or not the archive its name says',
      ],
      [
        { name: 'tarball.zip', data: tarGz([{ name: 'a.txt', data: 'a' }]) },
        'The package is corrupt or not the archive its name says',
      ],
      [
        // A zip cut short: the end record is gone.
        { name: 'cut.zip', data: small.subarray(0, small.length - 10) },
        'The package is corrupt or not the archive its name says',
      ],
      [
        {
          name: 'truncated.tar.gz',
          data: (() => {
            const whole = tarGz([{ name: 'a.bin', data: randomBytes(20000) }]);
            return whole.subarray(0, whole.length >> 1);
          })(),
        },
        'The package is corrupt or not the archive its name says',
      ],
      [
        // Complete gzip, tar cut inside an entry.
        {
          name: 'short.tar.gz',
          data: gzipSync(tar([{ name: 'a', data: 'x'.repeat(2000) }]).subarray(0, 1024)),
        },
        'The package is corrupt or not the archive its name says',
      ],
      [
        {
          name: 'checksum.tgz',
          data: (() => {
            const raw = tar([{ name: 'a.txt', data: 'a' }]);
            raw[0] = 'b'.charCodeAt(0); // the name changes, the checksum does not
            return gzipSync(raw);
          })(),
        },
        'The package is corrupt or not the archive its name says',
      ],
      [{ name: 'empty.zip', data: zip([]) }, 'The package holds no files'],
      [
        { name: 'dirs.tar.gz', data: tarGz([{ name: 'd', type: '5' }]) },
        'The package holds no files',
      ],
      [
        { name: 'slip.zip', data: zip([{ name: '../outside.js', data: 'x' }]) },
        'The package holds a path that leaves its folder (absolute or with "..")',
      ],
      [
        { name: 'abs.zip', data: zip([{ name: 'C:\\Windows\\x.dll', data: 'x' }]) },
        'The package holds a path that leaves its folder (absolute or with "..")',
      ],
      [
        {
          name: 'link.tar.gz',
          data: tarGz([
            { name: 'a.txt', data: 'a' },
            { name: 'sub/escape', type: '2', linkname: '../../etc/passwd' },
          ]),
        },
        'The package holds a path that leaves its folder (absolute or with "..")',
      ],
    ];
    const before = await packagesOnDisk();
    for (const [file, message] of cases) {
      const res = await upload({ rota_robots_id: robot, version: file.name }, file);
      expect({ name: file.name, status: res.status, errors: res.body.errors }).toEqual({
        name: file.name,
        status: 400,
        errors: [{ field: 'file', message }],
      });
    }
    expect((await c.admin.post(`${B}/index`, { rota_robots_id: robot })).body.meta.total).toBe(0);
    expect(await packagesOnDisk()).toEqual(before);
  });

  it('refuses at upload what the agent refuses to unpack, with the reason, keeping nothing', async () => {
    const robot = await createRobot(c.admin, 'Hostile robot');
    const link = 'The package holds a link (symbolic or hard); only files and folders are allowed';
    const special =
      'The package holds a special file (named pipe, device or socket); only files and folders are allowed';
    const unsafe = 'The package holds a path that leaves its folder (absolute or with "..")';
    const main = { name: 'main.js', data: 'console.log(1)' };
    const cases: [string, Buffer, string][] = [
      ['zip-symlink.zip', zip([main, { name: 'run', data: 'main.js', mode: 0o120777 }]), link],
      ['zip-fifo.zip', zip([main, { name: 'pipe', mode: 0o010644 }]), special],
      ['zip-device.zip', zip([main, { name: 'dev', mode: 0o020644 }]), special],
      ['zip-socket.zip', zip([main, { name: 'sock', mode: 0o140644 }]), special],
      ['tar-symlink.tar.gz', tarGz([main, { name: 'run', type: '2', linkname: 'main.js' }]), link],
      [
        'tar-hardlink.tar.gz',
        tarGz([main, { name: 'copy', type: '1', linkname: 'main.js' }]),
        link,
      ],
      ['tar-fifo.tar.gz', tarGz([main, { name: 'pipe', type: '6' }]), special],
      ['tar-chardev.tar.gz', tarGz([main, { name: 'null', type: '3' }]), special],
      ['tar-blockdev.tar.gz', tarGz([main, { name: 'sda', type: '4' }]), special],
      [
        // 1 MB of zeros deflates to ~1 KB; the headers claim a thousand times more again.
        'bomb.zip',
        zip([
          main,
          {
            name: 'zeros.bin',
            data: Buffer.alloc(1 << 20),
            deflate: true,
            declaredSize: 1_000_000_000,
          },
        ]),
        'The package claims to unpack to more than its data can hold (compression over 1100:1)',
      ],
      [
        'bomb-stored.zip',
        zip([{ name: 'big.bin', data: 'x', declaredSize: 1_000_000 }]),
        'The package is corrupt or not the archive its name says',
      ],
      ['traversal.tar.gz', tarGz([main, { name: 'a/../../evil.js', data: 'x' }]), unsafe],
      ['traversal-abs.tar.gz', tarGz([{ name: '/etc/cron.d/evil', data: 'x' }]), unsafe],
      ['traversal.zip', zip([main, { name: 'lib\\..\\..\\evil.js', data: 'x' }]), unsafe],
      ['nul.zip', zip([{ name: 'a\0.js', data: 'x' }]), unsafe],
      [
        'encrypted.zip',
        zip([{ name: 'secret.js', data: 'x', encrypted: true }]),
        'The package holds an encrypted entry',
      ],
      [
        'bzip2.zip',
        zip([{ name: 'a.js', data: 'x', method: 12 }]),
        'The package uses a compression method other than deflate',
      ],
    ];
    const before = await packagesOnDisk();
    for (const [name, data, message] of cases) {
      const res = await upload({ rota_robots_id: robot, version: name }, { name, data });
      expect({ name, status: res.status, errors: res.body.errors }).toEqual({
        name,
        status: 400,
        errors: [{ field: 'file', message }],
      });
    }
    const pt = await upload(
      { rota_robots_id: robot, version: 'pt' },
      { name: 'link.tar.gz', data: cases[4]![1] },
      { lang: 'pt' },
    );
    expect(pt.body.errors).toEqual([
      {
        field: 'file',
        message:
          'O pacote contém um link (simbólico ou físico); só arquivos e pastas são permitidos',
      },
    ]);
    expect((await c.admin.post(`${B}/index`, { rota_robots_id: robot })).body.meta.total).toBe(0);
    expect(await packagesOnDisk()).toEqual(before);

    // What deflate really reaches (~1030:1 on zeros) still passes.
    const dense = zip([main, { name: 'zeros.bin', data: Buffer.alloc(8 << 20), deflate: true }]);
    const ok = await upload(
      { rota_robots_id: robot, version: 'dense' },
      { name: 'dense.zip', data: dense },
    );
    expect(ok.status).toBe(201);
  });

  it('inflates a zip at upload, refusing one whose headers understate what it inflates to', async () => {
    const robot = await createRobot(c.admin, 'Bomb robot');
    // 8 MiB of zeros deflate to ~8 KiB: a 1 KiB claim is an honest-looking ratio, and a lie.
    const zeros = { name: 'zeros.bin', data: Buffer.alloc(8 << 20), deflate: true };
    const lying = zip([
      { name: 'main.js', data: 'x' },
      { ...zeros, declaredSize: 1024 },
    ]);
    const before = await packagesOnDisk();
    for (const lang of ['en', 'pt'] as const) {
      const res = await upload(
        { rota_robots_id: robot, version: `lying ${lang}` },
        { name: 'lying.zip', data: lying },
        { lang },
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          field: 'file',
          message:
            lang === 'en'
              ? 'The package is corrupt or not the archive its name says'
              : 'O pacote está corrompido ou não é o arquivo que o nome indica',
        },
      ]);
    }
    expect(await packagesOnDisk()).toEqual(before);
    const honest = zip([{ name: 'main.js', data: 'x' }, zeros]);
    const ok = await upload(
      { rota_robots_id: robot, version: 'honest' },
      { name: 'honest.zip', data: honest },
    );
    expect(ok.status).toBe(201);
  });

  it('refuses a package of more entries than the agent unpacks', async () => {
    const robot = await createRobot(c.admin, 'Crowded robot');
    const entries = Array.from({ length: ROBOT_PACKAGE_MAX_ENTRIES + 1 }, (_, i) => ({
      name: `d${i}`,
      type: '5' as const,
    }));
    const crowded = tarGz([{ name: 'main.js', data: 'x' }, ...entries]);
    const res = await upload(
      { rota_robots_id: robot, version: '1' },
      { name: 'crowded.tar.gz', data: crowded },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'file', message: 'The package holds more than 100,000 entries' },
    ]);
  });

  it('refuses a package over the size limit before keeping it', async () => {
    const robot = await createRobot(c.admin, 'Size-limited robot');
    const limited = await buildApp({
      config: {
        publicUrl: PUBLIC_URL,
        SMTP_URL: undefined,
        MAIL_FROM: 'r@test',
        TRUST_PROXY: false,
      },
      db: t.db,
      events: t.events,
      engine: { loop: false },
      webRoot: null,
      mailer: t.mailbox,
      secretBox: new SecretBox(t.secretKey),
      dataDir: t.dataDir,
      robotPackageMaxBytes: 4096,
    });
    try {
      const before = await packagesOnDisk();
      const fits = zip([{ name: 'a.bin', data: randomBytes(4096 - 22 - 30 - 46 - 10) }]);
      expect(fits.length).toBe(4096);
      const ok = await upload(
        { rota_robots_id: robot, version: 'fits' },
        { name: 'fits.zip', data: fits },
        { app: limited },
      );
      expect(ok.status).toBe(201);
      for (const size of [4097, 64 * 1024]) {
        const over = zip([{ name: 'a.bin', data: randomBytes(size) }]);
        const res = await upload(
          { rota_robots_id: robot, version: `over ${size}` },
          { name: 'over.zip', data: over },
          { app: limited },
        );
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([
          { field: 'file', message: 'The package is larger than 100 MB' },
        ]);
      }
      const after = await packagesOnDisk();
      expect(after.temp).toEqual([]);
      expect(after.stored).toEqual([...before.stored, sha256(fits)].sort());
      const list = await c.admin.post(`${B}/index`, { rota_robots_id: robot });
      expect(list.body.data.map((v: { version: string }) => v.version)).toEqual(['fits']);
    } finally {
      await limited.close();
    }
  });

  it('paginates, searches and sorts a robot’s versions', async () => {
    const robot = await createRobot(c.admin, 'Many versions robot');
    for (let i = 1; i <= 5; i++) {
      await upload(
        { rota_robots_id: robot, version: `0.${i}`, notes: i % 2 ? 'odd build' : 'even build' },
        { name: 'p.zip', data: small },
      );
    }
    const page = await c.admin.post(`${B}/index`, { rota_robots_id: robot, page: 2, per_page: 2 });
    expect(page.body.meta).toEqual({ total: 5, current_page: 2, per_page: 2 });
    expect(page.body.data.map((v: { version: string }) => v.version)).toEqual(['0.3', '0.2']);
    // The name a browser sends may carry its folder and any script; the header stays ASCII.
    const named = await upload(
      { rota_robots_id: robot, version: '0.6' },
      { name: 'C:\\fakepath\\pacote-ação final.zip', data: small },
    );
    expect(named.body.data.file_name).toBe('pacote-ação final.zip');
    const got = await download(named.body.data.rota_robot_versions_id);
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="pacote-a__o final.zip"; filename*=UTF-8''${encodeURIComponent('pacote-ação final.zip')}`,
    );

    const odd = await c.admin.post(`${B}/index`, {
      rota_robots_id: robot,
      search: 'ODD',
      sort: 'version',
      order: 'asc',
    });
    expect(odd.body.data.map((v: { version: string }) => v.version)).toEqual(['0.1', '0.3', '0.5']);
  });

  it('needs ROBOS permissions: list alone can read and download but not write', async () => {
    const robot = await createRobot(c.admin, 'Guarded versions robot');
    const created = await upload(
      { rota_robots_id: robot, version: '1' },
      { name: 'p.zip', data: small },
    );
    const id = created.body.data.rota_robot_versions_id;
    expect((await c.limited.post(`${B}/index`, { rota_robots_id: robot })).status).toBe(200);
    expect((await download(id, tokens.limited)).statusCode).toBe(200);
    const before = await packagesOnDisk();
    const denied = await upload(
      { rota_robots_id: robot, version: '2' },
      { name: 'q.zip', data: zip([{ name: 'q', data: 'q' }]) },
      { token: tokens.limited },
    );
    expect(denied.status).toBe(403);
    expect(await packagesOnDisk()).toEqual(before);
    expect((await c.limited.put(`${B}/update`, { id, current: true })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
  });

  it('answers 404 for another client’s robot or version on every call', async () => {
    const robot = await createRobot(c.admin, 'Private versions robot');
    const created = await upload(
      { rota_robots_id: robot, version: '1' },
      { name: 'p.zip', data: small },
    );
    const id = created.body.data.rota_robot_versions_id;
    expect((await c.other.post(`${B}/show`, { id })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id, current: true })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id, notes: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id })).status).toBe(404);
    expect((await download(id, tokens.other)).statusCode).toBe(404);
    const list = await c.other.post(`${B}/index`, { rota_robots_id: robot });
    expect(list.body.meta.total).toBe(0);

    const before = await packagesOnDisk();
    const intoTheirs = await upload(
      { rota_robots_id: robot, version: '2' },
      { name: 'x.zip', data: zip([{ name: 'x', data: 'intruder' }]) },
      { token: tokens.other },
    );
    expect(intoTheirs.status).toBe(404);
    expect(await packagesOnDisk()).toEqual(before);
    const mine = await c.admin.post(`${B}/show`, { id });
    expect(mine.body.data).toMatchObject({ notes: null, current: false });
  });
});
