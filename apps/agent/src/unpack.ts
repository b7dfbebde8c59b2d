import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ROBOT_PACKAGE_MAX_ENTRIES,
  ROBOT_PACKAGE_MAX_RATIO,
  ROBOT_PACKAGE_MAX_UNPACKED_BYTES,
} from '@rota/contract';
import * as tar from 'tar';
import yauzl from 'yauzl';

export type PackageFormat = 'zip' | 'tar.gz';

/**
 * A package may not unpack to more than this; it guards the disk against an archive bomb. The
 * limits are the contract's, so the server refuses at upload what this would refuse here.
 */
const MAX_UNPACKED_BYTES = ROBOT_PACKAGE_MAX_UNPACKED_BYTES;

/** The archive is broken or holds something that must not be written: none of it is used. */
export class UnsafeArchiveError extends Error {
  constructor(reason: string) {
    super(`package refused: ${reason}`);
    this.name = 'UnsafeArchiveError';
  }
}

/**
 * Why an entry name must not be extracted, or null when it is fine. Both separators count, since
 * a package built on Windows may be unpacked on Linux and the reverse.
 */
export function unsafeEntryNameReason(name: string): string | null {
  if (name.length === 0) return 'an entry has an empty name';
  if (name.includes('\0')) return `entry "${name}" has a NUL character in its name`;
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) {
    return `entry "${name}" has an absolute path`;
  }
  const segments = name.split(/[\\/]+/);
  if (segments.includes('..')) return `entry "${name}" has a ".." segment`;
  // On Windows a colon names a drive or an alternate data stream.
  if (process.platform === 'win32' && segments.some((s) => s.includes(':'))) {
    return `entry "${name}" has a ":" in its name`;
  }
  return null;
}

/** The entry's target inside `dest`, or why it has none. */
function targetOf(dest: string, name: string): { target: string } | { reason: string } {
  const reason = unsafeEntryNameReason(name);
  if (reason) return { reason };
  const target = path.resolve(dest, ...name.split(/[\\/]+/).filter((s) => s !== '' && s !== '.'));
  const relative = path.relative(dest, target);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return { reason: `entry "${name}" leaves the target directory` };
  }
  return { target };
}

interface ExtractOptions {
  maxBytes?: number;
}

/** Unpacks `archive` into the existing directory `dest`. */
export async function extractArchive(
  archive: string,
  format: PackageFormat,
  dest: string,
  options: ExtractOptions = {},
): Promise<void> {
  const maxBytes = options.maxBytes ?? MAX_UNPACKED_BYTES;
  const root = path.resolve(dest);
  if (format === 'zip') await extractZip(archive, root, maxBytes);
  else await extractTarGz(archive, root, maxBytes);
}

const TAR_ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

async function extractTarGz(archive: string, dest: string, maxBytes: number): Promise<void> {
  let violation = null as string | null;
  let total = 0;
  let entries = 0;
  await tar.x({
    file: archive,
    cwd: dest,
    strict: true,
    // As root tar would otherwise give files the uids of whoever built the archive.
    preserveOwner: false,
    filter: (entryPath, entry) => {
      // Once one entry is refused nothing more is written; the caller clears the directory.
      if (violation !== null) return false;
      if (++entries > ROBOT_PACKAGE_MAX_ENTRIES) {
        violation = `it holds more than ${ROBOT_PACKAGE_MAX_ENTRIES} entries`;
        return false;
      }
      const type = 'type' in entry ? entry.type : 'File';
      const size = 'size' in entry ? entry.size : 0;
      const checked = targetOf(dest, entryPath);
      if ('reason' in checked) {
        violation = checked.reason;
        return false;
      }
      if (!TAR_ALLOWED_TYPES.has(type)) {
        violation = `entry "${entryPath}" is a ${describeTarType(type)}, only files and directories are allowed`;
        return false;
      }
      total += size;
      if (total > maxBytes) {
        violation = `it unpacks to more than ${maxBytes} bytes`;
        return false;
      }
      return true;
    },
  });
  if (violation !== null) throw new UnsafeArchiveError(violation);
}

function describeTarType(type: string): string {
  switch (type) {
    case 'SymbolicLink':
      return 'symbolic link';
    case 'Link':
      return 'hard link';
    case 'CharacterDevice':
    case 'BlockDevice':
      return 'device file';
    case 'FIFO':
      return 'named pipe';
    default:
      return `"${type}" entry`;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const MADE_BY_UNIX = 3;

async function extractZip(archive: string, dest: string, maxBytes: number): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    // yauzl checks names too and refuses entries whose real size differs from the declared one.
    zip = await yauzl.openPromise(archive, { autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw asUnsafe(error);
  }
  try {
    let total = 0;
    if (zip.entryCount > ROBOT_PACKAGE_MAX_ENTRIES) {
      throw new UnsafeArchiveError(`it holds more than ${ROBOT_PACKAGE_MAX_ENTRIES} entries`);
    }
    for await (const entry of zip.eachEntry()) {
      const checked = targetOf(dest, entry.fileName);
      if ('reason' in checked) throw new UnsafeArchiveError(checked.reason);
      const { target } = checked;
      const isDirectory = /[\\/]$/.test(entry.fileName);
      const unixMode =
        entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalFileAttributes >>> 16 : 0;
      const fileType = unixMode & S_IFMT;
      if (fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) {
        throw new UnsafeArchiveError(
          `entry "${entry.fileName}" is a ${fileType === 0o120000 ? 'symbolic link' : 'special file'}, only files and directories are allowed`,
        );
      }
      if (isDirectory || fileType === S_IFDIR) {
        await mkdir(target, { recursive: true });
        continue;
      }
      if (entry.isEncrypted()) {
        throw new UnsafeArchiveError(`entry "${entry.fileName}" is encrypted`);
      }
      if (entry.uncompressedSize > ROBOT_PACKAGE_MAX_RATIO * Math.max(entry.compressedSize, 1)) {
        throw new UnsafeArchiveError(
          `entry "${entry.fileName}" claims a compression over ${ROBOT_PACKAGE_MAX_RATIO}:1`,
        );
      }
      total += entry.uncompressedSize;
      if (total > maxBytes)
        throw new UnsafeArchiveError(`it unpacks to more than ${maxBytes} bytes`);
      await mkdir(path.dirname(target), { recursive: true });
      const source = await zip.openReadStreamPromise(entry);
      // Keep the permission bits (a script's x bit) but never setuid/setgid/sticky.
      const mode = unixMode & 0o777 || 0o644;
      await pipeline(
        source,
        byteLimit(entry.uncompressedSize, entry.fileName),
        createWriteStream(target, { mode }),
      );
    }
  } catch (error) {
    throw asUnsafe(error);
  } finally {
    zip.close();
  }
}

/** Belt and braces next to yauzl's own size check: never write more than declared. */
function byteLimit(limit: number, name: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new UnsafeArchiveError(`entry "${name}" is bigger than declared`));
      else callback(null, chunk);
    },
  });
}

/** yauzl's own refusals (bad names, sizes, format) are about the archive; disk errors are not. */
function asUnsafe(error: unknown): Error {
  if (error instanceof UnsafeArchiveError) return error;
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') {
    return error;
  }
  return new UnsafeArchiveError(error instanceof Error ? error.message : String(error));
}
