import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ROBOT_PACKAGE_MAX_ENTRIES } from '@rota/contract';
import {
  isUnsafeEntryPath,
  isUnsafeLinkTarget,
  UNPACKED_MAX_BYTES,
  type PackageProblem,
} from './package-problems.js';

const BLOCK = 512;
/** GNU long names and pax headers are small; a huge one is an attack or garbage. */
const META_MAX_BYTES = 1024 * 1024;
/** Types whose size field says nothing of data following them (POSIX). */
const NO_DATA_TYPES = new Set(['1', '2', '3', '4', '5', '6']);
/** What the agent unpacks (node-tar's File, OldFile, ContiguousFile, Directory); all else is refused. */
const FILE_TYPES = new Set(['0', '\0', '7']);
const LINK_TYPES = new Set(['1', '2']);
/**
 * Headers, padding and pax records on top of the entries' own bytes: the inflated stream may
 * pass the unpacked limit by this much before it is a bomb rather than a big package.
 */
const TAR_OVERHEAD_BYTES = 256 * 1024 * 1024;

class Problem extends Error {
  constructor(readonly problem: PackageProblem) {
    super(problem);
  }
}

const corrupt = () => new Problem('package_corrupt');
const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Octal digits padded with spaces or NULs, or GNU base-256 when the high bit is set. */
function readNumber(field: Buffer): number {
  if (field[0]! & 0x80) {
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    if (!Number.isSafeInteger(value)) throw corrupt();
    return value;
  }
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw corrupt();
  return text === '' ? 0 : parseInt(text, 8);
}

/** The checksum counts its own field as spaces; old writers summed signed bytes. */
function checksumMatches(header: Buffer): boolean {
  const stored = readNumber(header.subarray(148, 156));
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

const cString = (buffer: Buffer) => {
  const end = buffer.indexOf(0);
  return buffer.toString('utf8', 0, end === -1 ? buffer.length : end);
};

/** pax records are `<length> <key>=<value>\n`. */
function paxValues(data: Buffer): Map<string, string> {
  const values = new Map<string, string>();
  let p = 0;
  while (p < data.length) {
    const space = data.indexOf(0x20, p);
    if (space === -1) throw corrupt();
    const length = Number(data.toString('latin1', p, space));
    if (!Number.isInteger(length) || length <= 0 || p + length > data.length) throw corrupt();
    const record = data.toString('utf8', space + 1, p + length - 1);
    const eq = record.indexOf('=');
    if (eq === -1) throw corrupt();
    values.set(record.slice(0, eq), record.slice(eq + 1));
    p += length;
  }
  return values;
}

/**
 * Reads a tar stream block by block: checks every header's checksum, follows GNU long names and
 * pax headers to learn each entry's real path, skips file data, and wants the end-of-archive
 * zero block before the stream ends (a truncated tar inside a complete gzip is still corrupt).
 */
class TarScanner {
  private want = BLOCK;
  private collected: Buffer[] = [];
  private collectedLength = 0;
  private skip = 0;
  private onCollected: (data: Buffer) => void = (block) => this.header(block);
  private longName: string | undefined;
  private longLink: string | undefined;
  private pax = new Map<string, string>();
  private ended = false;
  private inflated = 0;
  private entries = 0;
  private unpacked = 0;
  files = 0;

  push(chunk: Buffer) {
    // Counted before the end marker too: zeros after it would inflate just as long.
    this.inflated += chunk.length;
    if (this.inflated > UNPACKED_MAX_BYTES + TAR_OVERHEAD_BYTES) {
      throw new Problem('package_unpacked_too_large');
    }
    let p = 0;
    while (p < chunk.length && !this.ended) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - p);
        this.skip -= n;
        p += n;
        continue;
      }
      const n = Math.min(this.want - this.collectedLength, chunk.length - p);
      this.collected.push(chunk.subarray(p, p + n));
      this.collectedLength += n;
      p += n;
      if (this.collectedLength === this.want) {
        const data = Buffer.concat(this.collected);
        this.collected = [];
        this.collectedLength = 0;
        this.onCollected(data);
      }
    }
  }

  finish() {
    if (!this.ended) throw corrupt();
  }

  private expectHeader() {
    this.want = BLOCK;
    this.onCollected = (block) => this.header(block);
  }

  private header(block: Buffer) {
    if (block.every((b) => b === 0)) {
      this.ended = true;
      return;
    }
    if (!checksumMatches(block)) throw corrupt();
    const size = readNumber(block.subarray(124, 136));
    const type = String.fromCharCode(block[156]!);
    if (type === 'L' || type === 'K' || type === 'x' || type === 'X') {
      if (size > META_MAX_BYTES) throw corrupt();
      this.want = padded(size);
      this.onCollected = (data) => {
        this.meta(type, data.subarray(0, size));
        this.expectHeader();
      };
      if (this.want === 0) this.onCollected(Buffer.alloc(0));
      return;
    }
    if (type !== 'g') this.entry(block, type, size);
    if (!NO_DATA_TYPES.has(type)) this.skip = padded(size);
    this.expectHeader();
  }

  private meta(type: string, data: Buffer) {
    if (type === 'L') this.longName = cString(data);
    else if (type === 'K') this.longLink = cString(data);
    else this.pax = paxValues(data);
  }

  private entry(block: Buffer, type: string, size: number) {
    const posix = block.toString('latin1', 257, 263) === 'ustar\0';
    const prefix = posix ? cString(block.subarray(345, 500)) : '';
    const ownName = cString(block.subarray(0, 100));
    const name =
      this.pax.get('path') ?? this.longName ?? (prefix ? `${prefix}/${ownName}` : ownName);
    const link = this.pax.get('linkpath') ?? this.longLink ?? cString(block.subarray(157, 257));
    this.longName = undefined;
    this.longLink = undefined;
    this.pax = new Map();
    if (isUnsafeEntryPath(name)) throw new Problem('package_unsafe_path');
    // A hard link names another entry of the archive; a symlink points from its own folder.
    if (type === '1' && isUnsafeEntryPath(link)) throw new Problem('package_unsafe_path');
    if (type === '2' && isUnsafeLinkTarget(name, link)) throw new Problem('package_unsafe_path');
    if (++this.entries > ROBOT_PACKAGE_MAX_ENTRIES) throw new Problem('package_too_many_entries');
    // The agent writes files and folders only: a link could point a later file anywhere.
    if (LINK_TYPES.has(type)) throw new Problem('package_link');
    if (!FILE_TYPES.has(type) && type !== '5') throw new Problem('package_special_file');
    // node-tar refuses a link target on anything but a link (strict mode).
    if (link !== '') throw corrupt();
    if (FILE_TYPES.has(type)) {
      this.files += 1;
      this.unpacked += size;
      if (this.unpacked > UNPACKED_MAX_BYTES) throw new Problem('package_unpacked_too_large');
    }
  }
}

/** A tar.gz holds together when it gunzips to its end and every tar header checks out. */
export async function checkTarGz(filePath: string): Promise<PackageProblem | null> {
  const scanner = new TarScanner();
  try {
    await pipeline(
      createReadStream(filePath),
      createGunzip(),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          try {
            scanner.push(chunk);
            done();
          } catch (error) {
            done(error as Error);
          }
        },
      }),
    );
    scanner.finish();
  } catch (error) {
    if (error instanceof Problem) return error.problem;
    // zlib's errors (bad header, truncated stream, bad CRC) say the gzip is broken.
    if (isZlibError(error)) return 'package_corrupt';
    throw error;
  }
  return scanner.files === 0 ? 'package_empty' : null;
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('Z_');
}
