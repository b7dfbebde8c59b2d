import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  checkPackage,
  unsafeEntryNameReason,
  type ArchiveLimits,
  type PackageSink,
} from '@rota/archive-check';
import {
  ROBOT_PACKAGE_MAX_ENTRIES,
  ROBOT_PACKAGE_MAX_RATIO,
  ROBOT_PACKAGE_MAX_UNPACKED_BYTES,
} from '@rota/contract';
import * as tar from 'tar';

export { unsafeEntryNameReason };

export type PackageFormat = 'zip' | 'tar.gz';

/** The archive is broken or holds something that must not be written: none of it is used. */
export class UnsafeArchiveError extends Error {
  constructor(reason: string) {
    super(`package refused: ${reason}`);
    this.name = 'UnsafeArchiveError';
  }
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

function targetIn(dest: string, name: string): string {
  const checked = targetOf(dest, name);
  if ('reason' in checked) throw new UnsafeArchiveError(checked.reason);
  return checked.target;
}

interface ExtractOptions {
  /** The unpacked-size limit, when not the contract's (tests). */
  maxBytes?: number;
}

/** Writes what the shared check lets through, as it lets it through: one walk, no second parser. */
function sinkInto(dest: string): PackageSink {
  return {
    zip: {
      directory: async (name) => {
        await mkdir(targetIn(dest, name), { recursive: true });
      },
      file: async ({ name, unixMode, data }) => {
        const target = targetIn(dest, name);
        await mkdir(path.dirname(target), { recursive: true });
        // Keep the permission bits (a script's x bit) but never setuid/setgid/sticky.
        await pipeline(data, createWriteStream(target, { mode: unixMode & 0o777 || 0o644 }));
      },
    },
    tar: (options) =>
      // As root tar would otherwise give files the uids of whoever built the archive.
      new tar.Unpack({ ...options, cwd: dest, preserveOwner: false }),
  };
}

/**
 * Unpacks `archive` into the existing directory `dest`, through the check the server ran at
 * upload with the same limits (the contract's), so what it accepted unpacks here and what it
 * would refuse is refused before or while it is written. On a refusal the caller clears `dest`.
 */
export async function extractArchive(
  archive: string,
  format: PackageFormat,
  dest: string,
  options: ExtractOptions = {},
): Promise<void> {
  const limits: ArchiveLimits = {
    maxEntries: ROBOT_PACKAGE_MAX_ENTRIES,
    maxUnpackedBytes: options.maxBytes ?? ROBOT_PACKAGE_MAX_UNPACKED_BYTES,
    maxRatio: ROBOT_PACKAGE_MAX_RATIO,
  };
  const root = path.resolve(dest);
  const result = await checkPackage(archive, format, limits, sinkInto(root));
  if (!result.ok) throw new UnsafeArchiveError(result.message);
}
