import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ReceivedFile {
  tempPath: string;
  sha256: string;
  size: number;
}

/** Raised when a stream passes the size it may have; the partial temp file is already gone. */
export class TooLarge extends Error {}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Robot packages on disk, content-addressed: DATA_DIR/packages/<sha256>, so versions (of any
 * client) with the same bytes share one file. Uploads land in packages/tmp first and are moved
 * in only once checked, so a package path never holds a partial or unchecked file.
 */
export class PackageStore {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'packages');
    this.tmpDir = path.join(this.root, 'tmp');
  }

  pathOf(sha256: string): string {
    // The hash comes from our own rows; still, never let it name another path.
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.root, sha256);
  }

  /** Streams to a temp file, hashing and counting; more than `maxBytes` throws TooLarge. */
  async receive(source: Readable, maxBytes: number): Promise<ReceivedFile> {
    await mkdir(this.tmpDir, { recursive: true });
    const tempPath = path.join(this.tmpDir, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new TooLarge());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const out = createWriteStream(tempPath, { flags: 'wx' });
    try {
      await pipeline(source, meter, out);
    } catch (error) {
      // The file opens asynchronously: a stream torn down early may create it after this point
      // unless we wait for it to close, which would leave a stray .part behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await this.discard(tempPath);
      throw error;
    }
    return { tempPath, sha256: hash.digest('hex'), size };
  }

  /** Moves a checked temp file to its content address; the same bytes already there win. */
  async commit(file: ReceivedFile): Promise<void> {
    const target = this.pathOf(file.sha256);
    const existing = await stat(target).catch(() => null);
    if (existing?.size === file.size) {
      await this.discard(file.tempPath);
      return;
    }
    // rename is atomic: readers see the old file or the whole new one.
    await rename(file.tempPath, target);
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  /** The stored package and its size; null when the file is missing. */
  async open(sha256: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(sha256);
    const found = await stat(file).catch(() => null);
    if (!found) return null;
    return { stream: createReadStream(file), size: found.size };
  }
}
