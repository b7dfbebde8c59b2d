import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.js';
import type { BlobStore, OpenedBlob } from '../blobs/blob-store.js';

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
 * Pictures in the blob store (DATA_DIR/avatars on the embedded database, PostgreSQL otherwise),
 * named by the SHA-256 of their bytes: the name cannot be guessed, never changes for the same
 * bytes (so it may be cached for good), and users with the same picture share one blob.
 */
export class AvatarStore {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  /** Keeps the bytes and answers the address `users.avatar` holds. */
  async save(data: Buffer, format: AvatarFormat): Promise<string> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    const name = `${sha256}.${format}`;
    // Kept before the user row points at it; the sweep's grace period covers the gap.
    await this.blobs.put(this.db, 'avatar', name, { sha256, size: data.length, data });
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  /** The picture behind a served name, or null for a name this store would never have made. */
  async open(name: string): Promise<(OpenedBlob & { contentType: string }) | null> {
    const match = FILE_NAME.exec(name);
    if (!match) return null;
    const opened = await this.blobs.open('avatar', name);
    return opened && { ...opened, contentType: AVATAR_FORMATS[match[1] as AvatarFormat] };
  }

  /** Drops the picture behind an address once nobody shows it any more. */
  async release(url: string | null, stillUsed: (url: string) => Promise<boolean>): Promise<void> {
    if (!url?.startsWith(AVATAR_URL_PREFIX)) return;
    const name = url.slice(AVATAR_URL_PREFIX.length);
    if (!FILE_NAME.test(name) || (await stillUsed(url))) return;
    await this.blobs.remove(this.db, 'avatar', name);
  }
}
