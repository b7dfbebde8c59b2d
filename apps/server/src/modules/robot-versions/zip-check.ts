import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { ROBOT_PACKAGE_MAX_ENTRIES, ROBOT_PACKAGE_MAX_RATIO } from '@rota/contract';
import { isUnsafeEntryPath, UNPACKED_MAX_BYTES, type PackageProblem } from './package-problems.js';

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_SIZE = 56;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_SIZE = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_SIZE = 30;
const ZIP64_EXTRA_ID = 0x0001;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const UTF8_FLAG = 0x0800;
const ENCRYPTED_FLAG = 0x0001;
const UNICODE_PATH_EXTRA_ID = 0x7075;
const STORED = 0;
const DEFLATED = 8;
const MADE_BY_UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const WINDOW_BYTES = 1024 * 1024;

/** Thrown inside this file only: the archive does not hold together. */
class Corrupt extends Error {}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Corrupt();
  return buffer;
}

function u64(buffer: Buffer, offset: number): number {
  const value = buffer.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Corrupt();
  return Number(value);
}

interface Directory {
  entries: number;
  size: number;
  offset: number;
  /** Where the central directory must end: the ZIP64 record or the end record. */
  end: number;
}

/**
 * The end-of-central-directory record must be the file's last bytes (its comment included); a
 * comment may contain the signature, so every candidate from the end backwards is tried.
 */
async function readDirectory(file: FileHandle, fileSize: number): Promise<Directory> {
  if (fileSize < EOCD_SIZE) throw new Corrupt();
  const tailLength = Math.min(fileSize, EOCD_SIZE + MAX_COMMENT);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(file, tailStart, tailLength);
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    if (i + EOCD_SIZE + tail.readUInt16LE(i + 20) !== tail.length) continue;
    return directoryAt(file, tail, i, tailStart + i);
  }
  throw new Corrupt();
}

async function directoryAt(
  file: FileHandle,
  tail: Buffer,
  i: number,
  eocdOffset: number,
): Promise<Directory> {
  const disk = tail.readUInt16LE(i + 4);
  const cdDisk = tail.readUInt16LE(i + 6);
  const diskEntries = tail.readUInt16LE(i + 8);
  const entries = tail.readUInt16LE(i + 10);
  const size = tail.readUInt32LE(i + 12);
  const offset = tail.readUInt32LE(i + 16);
  const zip64 = entries === U16_MAX || size === U32_MAX || offset === U32_MAX;
  if (!zip64) {
    // Split (multi-disk) archives cannot be unpacked from one file.
    if (disk !== 0 || cdDisk !== 0 || diskEntries !== entries) throw new Corrupt();
    return { entries, size, offset, end: eocdOffset };
  }
  const locatorOffset = eocdOffset - ZIP64_LOCATOR_SIZE;
  if (locatorOffset < 0) throw new Corrupt();
  const locator = await readAt(file, locatorOffset, ZIP64_LOCATOR_SIZE);
  if (locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) throw new Corrupt();
  const recordOffset = u64(locator, 8);
  if (recordOffset + ZIP64_EOCD_SIZE > locatorOffset) throw new Corrupt();
  const record = await readAt(file, recordOffset, ZIP64_EOCD_SIZE);
  if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw new Corrupt();
  if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) throw new Corrupt();
  if (u64(record, 24) !== u64(record, 32)) throw new Corrupt();
  return {
    entries: u64(record, 32),
    size: u64(record, 40),
    offset: u64(record, 48),
    end: recordOffset,
  };
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  /** The Unix file type bits (S_IFMT) when a Unix zip wrote them, else 0. */
  fileType: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/** ZIP64 keeps the real values of the fields that read 0xFFFFFFFF in extra field 0x0001. */
function applyZip64Extra(extra: Buffer, entry: Entry) {
  for (let p = 0; p + 4 <= extra.length;) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    const body = p + 4;
    if (body + length > extra.length) throw new Corrupt();
    if (id === ZIP64_EXTRA_ID) {
      let q = body;
      const take = () => {
        if (q + 8 > body + length) throw new Corrupt();
        const value = u64(extra, q);
        q += 8;
        return value;
      };
      if (entry.uncompressedSize === U32_MAX) entry.uncompressedSize = take();
      if (entry.compressedSize === U32_MAX) entry.compressedSize = take();
      if (entry.localOffset === U32_MAX) entry.localOffset = take();
      return;
    }
    p = body + length;
  }
}

function parseCentralDirectory(cd: Buffer, expected: number): Entry[] {
  const entries: Entry[] = [];
  let p = 0;
  while (p < cd.length) {
    if (p + CENTRAL_SIZE > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
      throw new Corrupt();
    }
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const next = p + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > cd.length) throw new Corrupt();
    const nameStart = p + CENTRAL_SIZE;
    const madeBy = cd.readUInt16LE(p + 4);
    const extra = cd.subarray(nameStart + nameLength, nameStart + nameLength + extraLength);
    const rawName = cd.subarray(nameStart, nameStart + nameLength);
    const entry: Entry = {
      name: entryName(rawName, flags, extra),
      flags,
      method: cd.readUInt16LE(p + 10),
      fileType: madeBy >> 8 === MADE_BY_UNIX ? (cd.readUInt32LE(p + 38) >>> 16) & S_IFMT : 0,
      compressedSize: cd.readUInt32LE(p + 20),
      uncompressedSize: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
    };
    applyZip64Extra(extra, entry);
    entries.push(entry);
    p = next;
  }
  if (entries.length !== expected) throw new Corrupt();
  return entries;
}

/**
 * The name the agent's unzip (yauzl) uses: an Info-ZIP Unicode Path extra field whose CRC matches
 * the header's name wins over it; backslashes count as separators.
 */
function entryName(raw: Buffer, flags: number, extra: Buffer): string {
  let name: string | undefined;
  for (let p = 0; p + 4 <= extra.length;) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    const body = extra.subarray(p + 4, p + 4 + length);
    if (id === UNICODE_PATH_EXTRA_ID && body.length >= 6 && body[0] === 1) {
      if (body.readUInt32LE(1) === crc32(raw)) {
        name = body.toString('utf8', 5);
        break;
      }
    }
    p += 4 + length;
  }
  name ??= raw.toString(flags & UTF8_FLAG ? 'utf8' : 'latin1');
  return name.replaceAll('\\', '/');
}

/** The agent's refusal of one entry, or null; folders are only created, never read. */
function entryProblem(entry: Entry): PackageProblem | null {
  if (isUnsafeEntryPath(entry.name)) return 'package_unsafe_path';
  if (entry.fileType === S_IFLNK) return 'package_link';
  if (entry.fileType !== 0 && entry.fileType !== S_IFREG && entry.fileType !== S_IFDIR) {
    return 'package_special_file';
  }
  // yauzl refuses a stored entry whose two sizes differ, whatever it is.
  if (entry.method === STORED && !(entry.flags & ENCRYPTED_FLAG)) {
    if (entry.compressedSize !== entry.uncompressedSize) return 'package_corrupt';
  }
  if (entry.name.endsWith('/') || entry.fileType === S_IFDIR) return null;
  if (entry.flags & ENCRYPTED_FLAG) return 'package_encrypted';
  if (entry.method !== STORED && entry.method !== DEFLATED) return 'package_compression';
  if (entry.uncompressedSize > ROBOT_PACKAGE_MAX_RATIO * Math.max(entry.compressedSize, 1)) {
    return 'package_ratio';
  }
  return null;
}

/**
 * Each entry's local header is where the directory says, and its data ends before the
 * directory. Headers are read through a sliding window in file order: one read per entry
 * would take seconds for the tens of thousands of small files a node_modules holds.
 */
async function checkLocalHeaders(file: FileHandle, entries: Entry[], cdOffset: number) {
  const inFileOrder = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  let window: Buffer = Buffer.alloc(0);
  let windowStart = 0;
  for (const entry of inFileOrder) {
    if (entry.localOffset + LOCAL_SIZE > cdOffset) throw new Corrupt();
    if (entry.localOffset + LOCAL_SIZE > windowStart + window.length) {
      windowStart = entry.localOffset;
      window = await readAt(file, windowStart, Math.min(WINDOW_BYTES, cdOffset - windowStart));
    }
    const at = entry.localOffset - windowStart;
    if (window.readUInt32LE(at) !== LOCAL_SIGNATURE) throw new Corrupt();
    const dataStart =
      entry.localOffset + LOCAL_SIZE + window.readUInt16LE(at + 26) + window.readUInt16LE(at + 28);
    if (dataStart + entry.compressedSize > cdOffset) throw new Corrupt();
  }
}

/**
 * A zip holds together when its end record is found, its central directory parses to the
 * number of entries the end record announces, and every entry's local header is in place.
 * Entry data is not inflated: the agent does that, checking CRCs, when it unpacks.
 */
export async function checkZip(filePath: string): Promise<PackageProblem | null> {
  const file = await open(filePath, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const dir = await readDirectory(file, fileSize);
    if (dir.entries > ROBOT_PACKAGE_MAX_ENTRIES) return 'package_too_many_entries';
    if (dir.offset + dir.size > dir.end) throw new Corrupt();
    const entries = parseCentralDirectory(await readAt(file, dir.offset, dir.size), dir.entries);
    await checkLocalHeaders(file, entries, dir.offset);
    for (const entry of entries) {
      const problem = entryProblem(entry);
      if (problem) return problem;
    }
    const files = entries.filter((e) => !e.name.endsWith('/') && e.fileType !== S_IFDIR);
    if (files.length === 0) return 'package_empty';
    const unpacked = files.reduce((sum, e) => sum + e.uncompressedSize, 0);
    return unpacked > UNPACKED_MAX_BYTES ? 'package_unpacked_too_large' : null;
  } catch (error) {
    if (error instanceof Corrupt || error instanceof RangeError) return 'package_corrupt';
    throw error;
  } finally {
    await file.close();
  }
}
