import path from 'node:path';

/**
 * Why an entry name must not be unpacked ("zip slip"), or null when it is fine. Both separators
 * count and a colon is refused on every platform: a package checked on a Linux server may be
 * unpacked on Windows, where a colon names a drive or an alternate data stream.
 */
export function unsafeEntryNameReason(name: string): string | null {
  if (name.length === 0) return 'an entry has an empty name';
  if (name.includes('\0')) return `entry "${name}" has a NUL character in its name`;
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) {
    return `entry "${name}" has an absolute path`;
  }
  const segments = name.split(/[\\/]+/);
  if (segments.includes('..')) return `entry "${name}" has a ".." segment`;
  if (segments.some((s) => s.includes(':'))) return `entry "${name}" has a ":" in its name`;
  return null;
}

/** Why a symlink's target, read from the link's own folder, leaves the package, or null. */
export function unsafeLinkTargetReason(name: string, target: string): string | null {
  const t = target.replaceAll('\\', '/');
  if (t.startsWith('/') || /^[A-Za-z]:/.test(t)) {
    return `symbolic link "${name}" points to an absolute path ("${target}")`;
  }
  const resolved = path.posix.normalize(
    path.posix.join(path.posix.dirname(name.replaceAll('\\', '/')), t),
  );
  if (resolved === '..' || resolved.startsWith('../')) {
    return `symbolic link "${name}" points outside the package ("${target}")`;
  }
  return null;
}
