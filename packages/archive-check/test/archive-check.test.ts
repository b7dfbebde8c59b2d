import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackage, type ArchiveKind, type ArchiveLimits } from '../src/index.js';
import {
  lieAboutSizes,
  tar as tarOf,
  tarGz,
  zip,
  type TarEntry,
  type ZipEntry,
} from './archives.js';

const LIMITS: ArchiveLimits = { maxEntries: 1000, maxUnpackedBytes: 512 << 20, maxRatio: 1100 };
const main = { name: 'main.js', data: 'console.log(1)' };
let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'archive-check-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileOf(data: Buffer): Promise<string> {
  const file = path.join(dir, `p${++n}`);
  await writeFile(file, data);
  return file;
}

async function check(data: Buffer, kind: ArchiveKind, limits: Partial<ArchiveLimits> = {}) {
  return checkPackage(await fileOf(data), kind, { ...LIMITS, ...limits });
}

const codeOf = async (data: Buffer, kind: ArchiveKind, limits?: Partial<ArchiveLimits>) => {
  const result = await check(data, kind, limits);
  return result.ok ? 'ok' : result.code;
};
const zipCode = (entries: ZipEntry[], limits?: Partial<ArchiveLimits>) =>
  codeOf(zip(entries), 'zip', limits);
const tarCode = (entries: TarEntry[], limits?: Partial<ArchiveLimits>) =>
  codeOf(tarGz(entries), 'tar.gz', limits);

describe('checkPackage', () => {
  it('accepts files and folders, counting the files', async () => {
    const entries = [main, { name: 'lib/' }, { name: 'lib/a.txt', data: 'a', deflate: true }];
    expect(await check(zip(entries), 'zip')).toEqual({ ok: true, files: 2, bytes: 15 });
    const tarEntries = [
      main,
      { name: 'lib', type: '5' as const },
      { name: 'lib/a.txt', data: 'a' },
    ];
    expect(await check(tarGz(tarEntries), 'tar.gz')).toEqual({ ok: true, files: 2, bytes: 15 });
  });

  it('inflates a zip whose headers lie about its size and stops at the declared size', async () => {
    // 16 MiB of zeros deflate to ~16 KiB; the headers are made to claim 1 KiB.
    const real = zip([main, { name: 'zeros.bin', data: Buffer.alloc(16 << 20), deflate: true }]);
    expect(await codeOf(real, 'zip')).toBe('ok');
    const bomb = lieAboutSizes(real, 1024);
    const file = await fileOf(bomb);
    let received = 0;
    const result = await checkPackage(file, 'zip', LIMITS, {
      zip: {
        directory: async () => {},
        file: async ({ data }) => {
          for await (const chunk of data) received += (chunk as Buffer).length;
        },
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    expect(received).toBeLessThanOrEqual(1024);
  });

  it('refuses a zip entry over the compression ratio, and a tar.gz that inflates over it', async () => {
    const claim = { name: 'zeros.bin', data: Buffer.alloc(1 << 20), deflate: true };
    expect(await zipCode([main, { ...claim, declaredSize: 1_000_000_000 }])).toBe('ratio');
    expect(await zipCode([main, claim], { maxRatio: 100 })).toBe('ratio');
    expect(await zipCode([main, claim])).toBe('ok');
    const zeros = [{ name: 'zeros.bin', data: Buffer.alloc(1 << 20) }];
    expect(await tarCode(zeros, { maxRatio: 100 })).toBe('ratio');
    expect(await tarCode(zeros)).toBe('ok');
  });

  it('refuses more entries than the limit, folders included', async () => {
    const entries = [main, { name: 'a/' }, { name: 'b/' }];
    expect(await zipCode(entries, { maxEntries: 2 })).toBe('too_many_entries');
    expect(await zipCode(entries, { maxEntries: 3 })).toBe('ok');
    const dirs = [main, { name: 'a', type: '5' as const }, { name: 'b', type: '5' as const }];
    expect(await tarCode(dirs, { maxEntries: 2 })).toBe('too_many_entries');
    expect(await tarCode(dirs, { maxEntries: 3 })).toBe('ok');
  });

  it('refuses more unpacked bytes than the limit', async () => {
    const two = [
      { name: 'a.bin', data: Buffer.alloc(600) },
      { name: 'b.bin', data: Buffer.alloc(600) },
    ];
    expect(await zipCode(two, { maxUnpackedBytes: 1000 })).toBe('too_large');
    expect(await tarCode(two, { maxUnpackedBytes: 1000 })).toBe('too_large');
    expect(await zipCode(two, { maxUnpackedBytes: 1200 })).toBe('ok');
  });

  it.each([
    '../x',
    'a/../../x',
    'a\\..\\..\\x',
    '/etc/passwd',
    '\\\\server\\share\\x',
    'C:\\Windows\\x.dll',
    'c:relative.txt',
    'a/b:stream',
    'a\0.js',
  ])('refuses the unsafe name %j in both formats', async (name) => {
    expect(await zipCode([main, { name, data: 'x' }])).toBe('unsafe_path');
    if (!name.includes('\0'))
      expect(await tarCode([main, { name, data: 'x' }])).toBe('unsafe_path');
  });

  it('refuses links in a tar: escaping ones as unsafe paths, the others as links', async () => {
    const link = (type: '1' | '2', linkname: string) => [main, { name: 'sub/l', type, linkname }];
    expect(await tarCode(link('2', 'main.js'))).toBe('link');
    expect(await tarCode(link('2', '../main.js'))).toBe('link');
    expect(await tarCode(link('2', '../../etc/passwd'))).toBe('unsafe_path');
    expect(await tarCode(link('2', '/etc'))).toBe('unsafe_path');
    expect(await tarCode(link('1', 'main.js'))).toBe('link');
    expect(await tarCode(link('1', '../outside'))).toBe('unsafe_path');
    const result = await check(tarGz(link('2', '/etc')), 'tar.gz');
    expect(result).toMatchObject({
      entry: 'sub/l',
      message: expect.stringMatching(/symbolic link/),
    });
  });

  it('refuses a symlink in a zip', async () => {
    expect(await zipCode([main, { name: 'run', data: 'main.js', mode: 0o120777 }])).toBe('link');
  });

  it.each([
    ['a character device', '3' as const, 0o020644],
    ['a block device', '4' as const, 0o060644],
    ['a named pipe', '6' as const, 0o010644],
  ])('refuses %s', async (_what, type, mode) => {
    expect(await tarCode([main, { name: 'dev', type }])).toBe('special_file');
    expect(await zipCode([main, { name: 'dev', mode }])).toBe('special_file');
  });

  it('refuses truncated and damaged archives as corrupt', async () => {
    const good = zip([main, { name: 'a.bin', data: Buffer.alloc(5000, 7), deflate: true }]);
    expect(await codeOf(good.subarray(0, good.length - 10), 'zip')).toBe('corrupt');
    expect(await codeOf(good.subarray(0, good.length >> 1), 'zip')).toBe('corrupt');
    const gz = tarGz([{ name: 'a.bin', data: Buffer.alloc(20000, 7) }]);
    expect(await codeOf(gz.subarray(0, gz.length >> 1), 'tar.gz')).toBe('corrupt');
    // A complete gzip of a tar cut inside an entry.
    const raw = tarOf([{ name: 'a', data: 'x'.repeat(2000) }]);
    expect(await codeOf(gzipSync(raw.subarray(0, 1024)), 'tar.gz')).toBe('corrupt');
    const badSum = Buffer.from(raw);
    badSum[0] = 'b'.charCodeAt(0);
    expect(await codeOf(gzipSync(badSum), 'tar.gz')).toBe('corrupt');
    expect(await codeOf(Buffer.from('not an archive at all'), 'zip')).toBe('corrupt');
    expect(await codeOf(zip([main]), 'tar.gz')).toBe('corrupt');
  });

  it('refuses a zip entry whose data fails its CRC-32', async () => {
    const good = zip([{ name: 'a.txt', data: 'hello' }]);
    const bad = Buffer.from(good);
    bad.write('j', 30 + 'a.txt'.length, 'latin1');
    expect(await codeOf(good, 'zip')).toBe('ok');
    expect(await codeOf(bad, 'zip')).toBe('corrupt');
  });

  it('refuses a stored zip entry whose two sizes differ', async () => {
    expect(await zipCode([{ name: 'big.bin', data: 'x', declaredSize: 1_000_000 }])).toBe(
      'corrupt',
    );
  });

  it('refuses encrypted entries, other compression methods and packages without files', async () => {
    expect(await zipCode([{ name: 's.js', data: 'x', encrypted: true }])).toBe('encrypted');
    expect(await zipCode([{ name: 'a.js', data: 'x', method: 12 }])).toBe('compression');
    expect(await zipCode([])).toBe('empty');
    expect(await zipCode([{ name: 'only/' }])).toBe('empty');
    expect(await tarCode([{ name: 'd', type: '5' }])).toBe('empty');
  });

  it('throws what is not about the archive', async () => {
    const missing = path.join(dir, 'missing.zip');
    await expect(checkPackage(missing, 'zip', LIMITS)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(checkPackage(missing, 'tar.gz', LIMITS)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('hands checked tar entries to the sink parser, which can unpack them', async () => {
    const file = await fileOf(tarGz([main, { name: 'lib/a.txt', data: 'A' }]));
    const dest = await mkdtemp(path.join(dir, 'out-'));
    const result = await checkPackage(file, 'tar.gz', LIMITS, {
      tar: (options) => new tar.Unpack({ ...options, cwd: dest }),
    });
    expect(result).toMatchObject({ ok: true, files: 2 });
    expect(await readFile(path.join(dest, 'lib', 'a.txt'), 'utf8')).toBe('A');
  });
});
