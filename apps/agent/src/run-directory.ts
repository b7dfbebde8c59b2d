import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { extractArchive, type PackageFormat } from './unpack.js';

/** Holds the sha256 of the package unpacked in a directory; written last, after the unpack. */
export const VERSION_MARKER = '.rota-version';

/**
 * Where a run executes: the robot's `remote_root` (absolute on the VM, or relative to the work
 * dir), else `<work-dir>/robots/<robot id>` when there is a package to unpack, else the work dir.
 */
export function runDirectoryOf(
  workDir: string,
  robot: { rota_robots_id: number; remote_root: string | null },
  hasPackage: boolean,
): string {
  const root = robot.remote_root?.trim();
  if (root) return path.resolve(workDir, root);
  return hasPackage ? path.join(workDir, 'robots', String(robot.rota_robots_id)) : workDir;
}

interface InstallRequest {
  archive: string;
  format: PackageFormat;
  sha256: string;
  dir: string;
  workDir: string;
  maxBytes?: number;
}

/** One install at a time per directory: two slots running the same robot share it. */
const locks = new Map<string, Promise<unknown>>();

/**
 * Makes `dir` hold exactly the package: nothing happens when its marker already names this
 * sha256, otherwise the old content is removed and the archive unpacked. Returns whether it
 * unpacked.
 */
export async function installPackage(request: InstallRequest): Promise<boolean> {
  const key = path.resolve(request.dir);
  const previous = locks.get(key) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => install(request));
  locks.set(key, current);
  try {
    return await current;
  } finally {
    if (locks.get(key) === current) locks.delete(key);
  }
}

async function install({ archive, format, sha256, dir, workDir, maxBytes }: InstallRequest) {
  const marker = path.join(dir, VERSION_MARKER);
  const installed = await readFile(marker, 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  if (installed === sha256) return false;

  refuseDangerousDirectory(dir, workDir);
  await mkdir(dir, { recursive: true });
  const entries = await readdir(dir);
  // Clearing a directory the agent did not fill could wipe someone's files (remote_root is
  // whatever the console says): only a directory that is empty or holds our marker is cleared.
  if (installed === null && entries.length > 0) {
    throw new Error(
      `${dir} is not empty and was not unpacked by the agent (no ${VERSION_MARKER}): empty it or choose another remote_root`,
    );
  }
  await clear(dir);
  try {
    await extractArchive(archive, format, dir, maxBytes === undefined ? {} : { maxBytes });
  } catch (error) {
    await clear(dir);
    throw error;
  }
  await writeFile(marker, `${sha256}\n`, 'utf8');
  return true;
}

async function clear(dir: string): Promise<void> {
  // The marker goes first: if clearing is interrupted, the next run unpacks again.
  await rm(path.join(dir, VERSION_MARKER), { force: true });
  for (const name of await readdir(dir)) {
    await rm(path.join(dir, name), { recursive: true, force: true, maxRetries: 2 });
  }
}

function refuseDangerousDirectory(dir: string, workDir: string): void {
  const resolved = path.resolve(dir);
  if (path.parse(resolved).root === resolved) {
    throw new Error(`refusing to unpack into the root directory ${resolved}`);
  }
  if (isInside(path.resolve(workDir), resolved)) {
    throw new Error(`refusing to unpack into ${resolved}: it holds the agent's work dir`);
  }
  for (const own of ['packages', 'outbox']) {
    if (isInside(resolved, path.join(workDir, own))) {
      throw new Error(`refusing to unpack into ${resolved}: it is the agent's own ${own} dir`);
    }
  }
}

/** True when `inner` is `outer` or below it. */
function isInside(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return (
    relative === '' ||
    (!(relative === '..' || relative.startsWith(`..${path.sep}`)) && !path.isAbsolute(relative))
  );
}
