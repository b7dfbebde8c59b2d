import { open, type FileHandle } from 'node:fs/promises';
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
    const entry: Entry = {
      name: cd.toString(flags & UTF8_FLAG ? 'utf8' : 'latin1', nameStart, nameStart + nameLength),
      compressedSize: cd.readUInt32LE(p + 20),
      uncompressedSize: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
    };
    applyZip64Extra(
      cd.subarray(nameStart + nameLength, nameStart + nameLength + extraLength),
      entry,
    );
    entries.push(entry);
    p = next;
  }
  if (entries.length !== expected) throw new Corrupt();
  return entries;
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
    if (dir.offset + dir.size > dir.end) throw new Corrupt();
    const entries = parseCentralDirectory(await readAt(file, dir.offset, dir.size), dir.entries);
    await checkLocalHeaders(file, entries, dir.offset);
    if (entries.some((e) => isUnsafeEntryPath(e.name))) return 'package_unsafe_path';
    if (!entries.some((e) => !e.name.endsWith('/'))) return 'package_empty';
    const unpacked = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    return unpacked > UNPACKED_MAX_BYTES ? 'package_unpacked_too_large' : null;
  } catch (error) {
    if (error instanceof Corrupt || error instanceof RangeError) return 'package_corrupt';
    throw error;
  } finally {
    await file.close();
  }
}
