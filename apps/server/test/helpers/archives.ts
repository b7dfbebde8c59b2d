import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** Small archive writers for tests that upload robot packages (no zip library is installed). */

export interface ArchiveEntry {
  name: string;
  data?: Buffer | string;
}

/** What a hostile zip may say about an entry (tests of the upload's checks). */
export interface ZipEntry extends ArchiveEntry {
  /** Compressed with deflate instead of stored. */
  deflate?: boolean;
  /** The uncompressed size the headers claim, instead of the real one (a bomb's lie). */
  declaredSize?: number;
  /** Unix mode bits with the file type (0o120777 a symlink, 0o010644 a FIFO); made by Unix. */
  mode?: number;
  /**
   * The encryption flag set, with the 12-byte header traditional encryption puts before the
   * data (which is not actually encrypted).
   */
  encrypted?: boolean;
  /** A compression method number other than stored (0) or deflate (8). */
  method?: number;
}

/** A zip of stored (or deflated) entries with CRC32s, as any unzip reads it. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.data ?? '');
    const crc = crc32(raw);
    const packed = entry.deflate ? deflateRawSync(raw, { level: 9 }) : raw;
    const data = entry.encrypted ? Buffer.concat([Buffer.alloc(12), packed]) : packed;
    const method = entry.method ?? (entry.deflate ? 8 : 0);
    const flags = 0x0800 | (entry.encrypted ? 1 : 0); // names are UTF-8
    const size = entry.declaredSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.mode === undefined ? 20 : 0x0314, 4); // made by (3 = Unix)
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export interface TarEntry extends ArchiveEntry {
  /** '0' file (default), '5' directory, '1' hard link, '2' symlink, '3'/'4' devices, '6' FIFO. */
  type?: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  linkname?: string;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function tarHeader(entry: TarEntry, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(entry.name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  header.write(octal(size, 12), 124, 'latin1');
  header.write(octal(0, 12), 136, 'latin1');
  header.write(' '.repeat(8), 148, 'latin1');
  header.write(entry.type ?? '0', 156, 'latin1');
  header.write(entry.linkname ?? '', 157, 100, 'utf8');
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

/** A ustar archive ending with its two zero blocks. */
export function tar(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    blocks.push(
      tarHeader(entry, data.length),
      data,
      Buffer.alloc((512 - (data.length % 512)) % 512),
    );
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const tarGz = (entries: TarEntry[]) => gzipSync(tar(entries));
