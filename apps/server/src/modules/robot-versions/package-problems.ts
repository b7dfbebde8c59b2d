import path from 'node:path';

/** What an uploaded package can be refused for, as contract message keys of the `file` field. */
export type PackageProblem =
  'package_corrupt' | 'package_empty' | 'package_unsafe_path' | 'package_unpacked_too_large';

/**
 * Unpacked size an archive may claim. A 100 MB gzip of zeros inflates to ~100 GB: without a cap,
 * checking (and later unpacking on an agent) one upload could take minutes of CPU or fill a disk.
 */
export const UNPACKED_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * An entry an agent would write outside its folder on extraction ("zip slip"): absolute, a
 * drive letter, or `..` anywhere. Both separators count, as robots often run on Windows.
 */
export function isUnsafeEntryPath(name: string): boolean {
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
