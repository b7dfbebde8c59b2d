import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const AVATAR_FORMATS = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
export type AvatarFormat = keyof typeof AVATAR_FORMATS;

/** Where the public GET route serves pictures from; `users.avatar` holds this plus the file name. */
export const AVATAR_URL_PREFIX = '/api/user/api/v1/avatar/';

const FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

/**
 * The format the bytes are, whatever the upload claimed: a browser renders by content type,
 * and a file served as an image must be one (SVG is refused, it can carry scripts).
 */
export function sniffImage(data: Buffer): AvatarFormat | null {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
  const ascii = (text: string, at = 0) => data.toString('latin1', at, at + text.length) === text;
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (ascii('GIF87a') || ascii('GIF89a')) return 'gif';
  if (data.length >= 12 && ascii('RIFF') && ascii('WEBP', 8)) return 'webp';
  return null;
}

/**
 * Pictures on disk under DATA_DIR/avatars, named by the SHA-256 of their bytes: the name cannot
 * be guessed, never changes for the same bytes (so it may be cached for good), and users with
 * the same picture share one file.
 */
export class AvatarStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'avatars');
  }

  /** Keeps the bytes and answers the address `users.avatar` holds. */
  async save(data: Buffer, format: AvatarFormat): Promise<string> {
    const name = `${createHash('sha256').update(data).digest('hex')}.${format}`;
    const target = path.join(this.root, name);
    const existing = await stat(target).catch(() => null);
    if (existing?.size !== data.length) {
      await mkdir(this.root, { recursive: true });
      // Written aside and renamed: a reader never sees half a picture.
      const temp = path.join(this.root, `.${randomUUID()}.part`);
      try {
        await writeFile(temp, data, { flag: 'wx' });
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    }
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  /** The file behind a served name, or null for a name this store would never have made. */
  fileOf(name: string): { path: string; contentType: string } | null {
    const match = FILE_NAME.exec(name);
    if (!match) return null;
    return {
      path: path.join(this.root, name),
      contentType: AVATAR_FORMATS[match[1] as AvatarFormat],
    };
  }

  /** Drops the file behind an address once nobody shows it any more. */
  async release(url: string | null, stillUsed: (url: string) => Promise<boolean>): Promise<void> {
    if (!url?.startsWith(AVATAR_URL_PREFIX)) return;
    const file = this.fileOf(url.slice(AVATAR_URL_PREFIX.length));
    if (!file || (await stillUsed(url))) return;
    await rm(file.path, { force: true });
  }
}
