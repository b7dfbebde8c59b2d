import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPackage, VERSION_MARKER } from '../src/run-directory.js';
import { extractArchive, unsafeEntryNameReason, UnsafeArchiveError } from '../src/unpack.js';
import { makeRawTarGz, makeTarGz, makeZip, tempDir } from './helpers/archives.js';

let root: string;
let dest: string;

beforeEach(async () => {
  root = await tempDir();
  dest = path.join(root, 'robot');
  await mkdir(dest);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function archiveFile(name: string, data: Buffer): Promise<string> {
  const file = path.join(root, name);
  await writeFile(file, data);
  return file;
}

describe('unsafeEntryNameReason', () => {
  it.each([
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\share\\x', 'absolute'],
    ['C:\\Windows\\x.dll', 'absolute'],
    ['c:relative.txt', 'absolute'],
    ['../x', '".."'],
    ['a/../../x', '".."'],
    ['a\\..\\..\\x', '".."'],
    ['', 'empty'],
  ])('refuses %j', (name, why) => {
    expect(unsafeEntryNameReason(name)).toContain(why);
  });

  it.each(['main.js', 'lib/util.js', 'dir/', './a/b.txt', 'a..b/c..d'])('accepts %j', (name) => {
    expect(unsafeEntryNameReason(name)).toBeNull();
  });
});

describe('extractArchive, zip', () => {
  it('unpacks files and directories, keeping the x bit', async () => {
    const zip = makeZip([
      { name: 'main.js', data: 'console.log(1)' },
      { name: 'lib/', data: '' },
      { name: 'lib/run.sh', data: '#!/bin/sh\n', unixMode: 0o100755 },
    ]);
    await extractArchive(await archiveFile('p.zip', zip), 'zip', dest);
    expect(await readFile(path.join(dest, 'main.js'), 'utf8')).toBe('console.log(1)');
    expect(await readFile(path.join(dest, 'lib', 'run.sh'), 'utf8')).toBe('#!/bin/sh\n');
    if (process.platform !== 'win32') {
      expect((await stat(path.join(dest, 'lib', 'run.sh'))).mode & 0o100).toBe(0o100);
    }
  });

  it.each([
    ['a ".." segment', [{ name: '../evil.txt', data: 'x' }]],
    ['an absolute path', [{ name: '/tmp/evil.txt', data: 'x' }]],
    ['a symlink', [{ name: 'link', data: '/etc/passwd', unixMode: 0o120777 }]],
    ['a device file', [{ name: 'dev', data: '', unixMode: 0o020644 }]],
  ])('refuses %s', async (_what, entries) => {
    const file = await archiveFile('p.zip', makeZip(entries));
    await expect(extractArchive(file, 'zip', dest)).rejects.toBeInstanceOf(UnsafeArchiveError);
    expect(existsSync(path.join(root, 'evil.txt'))).toBe(false);
    expect(await readdir(dest)).toEqual([]);
  });

  it('refuses a package that unpacks to more than the cap', async () => {
    const file = await archiveFile(
      'p.zip',
      makeZip([
        { name: 'a.bin', data: Buffer.alloc(600) },
        { name: 'b.bin', data: Buffer.alloc(600) },
      ]),
    );
    await expect(extractArchive(file, 'zip', dest, { maxBytes: 1000 })).rejects.toThrow(
      /more than 1000 bytes/,
    );
  });
});

describe('extractArchive, tar.gz', () => {
  it('unpacks what tar.c packed', async () => {
    const file = await archiveFile(
      'p.tar.gz',
      await makeTarGz({ 'main.js': 'console.log(2)', 'lib/a.txt': 'A' }),
    );
    await extractArchive(file, 'tar.gz', dest);
    expect(await readFile(path.join(dest, 'main.js'), 'utf8')).toBe('console.log(2)');
    expect(await readFile(path.join(dest, 'lib', 'a.txt'), 'utf8')).toBe('A');
  });

  it.each([
    ['a ".." segment', [{ path: '../evil.txt', data: 'x' }], /".." segment/],
    ['an absolute path', [{ path: '/tmp/rota-evil.txt', data: 'x' }], /absolute path/],
    [
      'a symlink',
      [{ path: 'link', type: 'SymbolicLink' as const, linkpath: '/etc' }],
      /symbolic link/,
    ],
    ['a hard link', [{ path: 'hard', type: 'Link' as const, linkpath: 'x' }], /hard link/],
    ['a device file', [{ path: 'dev', type: 'CharacterDevice' as const }], /device file/],
  ])('refuses %s', async (_what, entries, message) => {
    const file = await archiveFile(
      'p.tar.gz',
      makeRawTarGz([
        { path: 'ok.txt', data: 'fine' },
        ...entries,
        { path: 'after.txt', data: 'x' },
      ]),
    );
    await expect(extractArchive(file, 'tar.gz', dest)).rejects.toThrow(message);
    expect(existsSync(path.join(root, 'evil.txt'))).toBe(false);
    expect(existsSync(path.join(dest, 'link'))).toBe(false);
    // Nothing after the refused entry is written.
    expect(existsSync(path.join(dest, 'after.txt'))).toBe(false);
  });

  it('refuses a package that unpacks to more than the cap', async () => {
    const file = await archiveFile(
      'p.tar.gz',
      makeRawTarGz([
        { path: 'a.txt', data: 'x'.repeat(600) },
        { path: 'b.txt', data: 'x'.repeat(600) },
      ]),
    );
    await expect(extractArchive(file, 'tar.gz', dest, { maxBytes: 1000 })).rejects.toThrow(
      /more than 1000 bytes/,
    );
    expect(existsSync(path.join(dest, 'b.txt'))).toBe(false);
  });
});

describe('installPackage', () => {
  it('unpacks once per sha256, clears old files on a new version, writes the marker last', async () => {
    const v1 = await archiveFile('v1.zip', makeZip([{ name: 'old.txt', data: '1' }]));
    const v2 = await archiveFile('v2.zip', makeZip([{ name: 'new.txt', data: '2' }]));
    const request = { format: 'zip' as const, dir: dest, workDir: root };
    expect(await installPackage({ ...request, archive: v1, sha256: 'a'.repeat(64) })).toBe(true);
    await writeFile(path.join(dest, 'output.log'), 'robot output');
    expect(await installPackage({ ...request, archive: v1, sha256: 'a'.repeat(64) })).toBe(false);
    expect(existsSync(path.join(dest, 'output.log'))).toBe(true);

    expect(await installPackage({ ...request, archive: v2, sha256: 'b'.repeat(64) })).toBe(true);
    expect((await readdir(dest)).sort()).toEqual([VERSION_MARKER, 'new.txt']);
    expect((await readFile(path.join(dest, VERSION_MARKER), 'utf8')).trim()).toBe('b'.repeat(64));
  });

  it('refuses to clear a non-empty directory it did not fill', async () => {
    await writeFile(path.join(dest, 'precious.txt'), 'keep me');
    const v1 = await archiveFile('v1.zip', makeZip([{ name: 'a.txt', data: '1' }]));
    await expect(
      installPackage({
        archive: v1,
        format: 'zip',
        sha256: 'a'.repeat(64),
        dir: dest,
        workDir: root,
      }),
    ).rejects.toThrow(/not empty/);
    expect(await readFile(path.join(dest, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses to unpack over the work dir', async () => {
    const v1 = await archiveFile('v1.zip', makeZip([{ name: 'a.txt', data: '1' }]));
    await expect(
      installPackage({
        archive: v1,
        format: 'zip',
        sha256: 'a'.repeat(64),
        dir: root,
        workDir: dest,
      }),
    ).rejects.toThrow(/work dir/);
  });

  it('leaves no half package and no marker when the archive is refused', async () => {
    const bad = await archiveFile(
      'bad.tar.gz',
      makeRawTarGz([
        { path: 'a.txt', data: 'a' },
        { path: 'l', type: 'SymbolicLink', linkpath: '/' },
      ]),
    );
    await expect(
      installPackage({
        archive: bad,
        format: 'tar.gz',
        sha256: 'c'.repeat(64),
        dir: dest,
        workDir: root,
      }),
    ).rejects.toThrow(/symbolic link/);
    expect(await readdir(dest)).toEqual([]);
    await expect(lstat(path.join(dest, VERSION_MARKER))).rejects.toThrow();
  });
});
