import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * `update.json`, next to the executable: written when a new executable was put in place, counted
 * at each start, removed once the new version's first hello succeeded (or after a roll-back).
 */
export interface UpdateMarker {
  from: string;
  to: string;
  started_at: string;
  /** Starts of the new executable so far that did not reach a successful hello. */
  starts: number;
}

export const markerPath = (exe: string) => path.join(path.dirname(exe), 'update.json');
export const previousPath = (exe: string) => `${exe}.previous`;

export async function readMarker(exe: string): Promise<UpdateMarker | null> {
  let text: string;
  try {
    text = await readFile(markerPath(exe), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<UpdateMarker>;
    if (typeof value.from !== 'string' || typeof value.to !== 'string') return null;
    return {
      from: value.from,
      to: value.to,
      started_at: typeof value.started_at === 'string' ? value.started_at : '',
      starts: typeof value.starts === 'number' && value.starts >= 0 ? value.starts : 0,
    };
  } catch {
    // A marker cut short by a crash while it was written: treated as a start that failed.
    return { from: 'unknown', to: 'unknown', started_at: '', starts: 1 };
  }
}

export async function writeMarker(exe: string, marker: UpdateMarker): Promise<void> {
  // Written whole beside it, then renamed: a crash never leaves half a marker.
  const file = markerPath(exe);
  await writeFile(`${file}.tmp`, JSON.stringify(marker));
  await rename(`${file}.tmp`, file);
}

export const removeMarker = (exe: string) => rm(markerPath(exe), { force: true });

/**
 * `update-rejected.json`: the version a roll-back came back from. Offers of it are refused from
 * then on (the server keeps offering what was asked), so a build that cannot start is not put in
 * place again and again; a newer one is taken as usual.
 */
export const rejectedPath = (exe: string) => path.join(path.dirname(exe), 'update-rejected.json');

export async function readRejectedVersion(exe: string): Promise<string | null> {
  try {
    const value = JSON.parse(await readFile(rejectedPath(exe), 'utf8')) as { version?: unknown };
    return typeof value.version === 'string' ? value.version : null;
  } catch {
    return null;
  }
}

export const writeRejectedVersion = (exe: string, version: string) =>
  writeFile(rejectedPath(exe), JSON.stringify({ version, at: new Date().toISOString() }));
