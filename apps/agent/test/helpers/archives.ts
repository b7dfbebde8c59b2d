import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import * as tar from 'tar';

export interface ZipEntrySpec {
  name: string;
  data?: string | Buffer;
  /** Unix mode including the file type bits (e.g. 0o120777 for a symlink); sets "made by Unix". */
  unixMode?: number;
}

/** A zip written by hand with the "store" method, so a test can put anything in it. */
export function makeZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '', 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // store
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode === undefined ? 20 : (3 << 8) | 20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

export interface TarEntrySpec {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  data?: string;
  linkpath?: string;
}

/** A tar.gz with hand-made headers (tar's Header class), for entries `tar.c` would never write. */
export function makeRawTarGz(entries: TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '', 'utf8');
    const type = entry.type ?? 'File';
    const header = new tar.Header({
      path: entry.path,
      type,
      mode: type === 'Directory' ? 0o755 : 0o644,
      size: type === 'File' ? data.length : 0,
      mtime: new Date(0),
      ...(entry.linkpath === undefined ? {} : { linkpath: entry.linkpath }),
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && data.length > 0) {
      blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** A normal tar.gz made with `tar.c` from the given files. */
export async function makeTarGz(files: Record<string, string>): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-tar-'));
  try {
    const src = path.join(dir, 'src');
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(src, name)), { recursive: true });
      await writeFile(path.join(src, name), content);
    }
    const file = path.join(dir, 'package.tar.gz');
    await tar.c({ gzip: true, file, cwd: src, portable: true }, Object.keys(files));
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function tempDir(prefix = 'rota-agent-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}
