import path from 'node:path';
import { ROBOT_PACKAGE_MAX_UNPACKED_BYTES } from '@rota/contract';

/**
 * What an uploaded package can be refused for, as contract message keys of the `file` field.
 * They are the agent's refusals (apps/agent/src/unpack.ts), told at upload: a version the agent
 * would refuse at every run must never be accepted.
 */
export type PackageProblem =
  | 'package_corrupt'
  | 'package_empty'
  | 'package_unsafe_path'
  | 'package_unpacked_too_large'
  | 'package_link'
  | 'package_special_file'
  | 'package_ratio'
  | 'package_too_many_entries'
  | 'package_encrypted'
  | 'package_compression';

/**
 * Unpacked size an archive may claim. A 100 MB gzip of zeros inflates to ~100 GB: without a cap,
 * checking (and later unpacking on an agent) one upload could take minutes of CPU or fill a disk.
 */
export const UNPACKED_MAX_BYTES = ROBOT_PACKAGE_MAX_UNPACKED_BYTES;

/**
 * An entry an agent would write outside its folder on extraction ("zip slip"): absolute, a
 * drive letter, or `..` anywhere. Both separators count, as robots often run on Windows.
 */
export function isUnsafeEntryPath(name: string): boolean {
  // The agent refuses an empty name and a NUL in one before anything else.
  if (name.length === 0 || name.includes('\0')) return true;
  const normalised = name.replaceAll('\\', '/');
  if (normalised.startsWith('/') || /^[A-Za-z]:/.test(normalised)) return true;
  return normalised.split('/').some((segment) => segment === '..');
}

/** A link (tar symlink or hard link) whose target, read from the link's folder, leaves the root. */
export function isUnsafeLinkTarget(entryName: string, target: string): boolean {
  const t = target.replaceAll('\\', '/');
  if (t.startsWith('/') || /^[A-Za-z]:/.test(t)) return true;
  const resolved = path.posix.normalize(
    path.posix.join(path.posix.dirname(entryName.replaceAll('\\', '/')), t),
  );
  return resolved === '..' || resolved.startsWith('../');
}
