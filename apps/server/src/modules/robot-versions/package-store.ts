import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/client.js';
import type { BlobStore, OpenedBlob } from '../blobs/blob-store.js';

export interface ReceivedFile {
  tempPath: string;
  sha256: string;
  size: number;
}

/** Raised when a stream passes the size it may have; the partial temp file is already gone. */
export class TooLarge extends Error {}

/**
 * Robot packages, content-addressed by sha256 in the blob store (DATA_DIR/packages/<sha256> on
 * the embedded database, PostgreSQL otherwise), so versions (of any client) with the same bytes
 * share one blob. Uploads land in a local temp folder first (DATA_DIR/packages/tmp) and reach
 * the store only once checked, so a package name never holds a partial or unchecked file.
 */
export class PackageStore {
  readonly tmpDir: string;

  constructor(
    dataDir: string,
    readonly blobs: BlobStore,
  ) {
    this.tmpDir = path.join(dataDir, 'packages', 'tmp');
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

  /**
   * Keeps a checked temp file as its sha256, in `tx` on PostgreSQL; the same bytes already
   * kept win (and are touched, so the orphan sweep leaves them to the row being written).
   */
  async commit(tx: Db, file: ReceivedFile): Promise<void> {
    await this.blobs.put(tx, 'package', file.sha256, {
      sha256: file.sha256,
      size: file.size,
      file: file.tempPath,
    });
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(tx: Db, sha256: string): Promise<void> {
    await this.blobs.remove(tx, 'package', sha256);
  }

  /** The stored package and its size; null when it is missing. */
  open(sha256: string): Promise<OpenedBlob | null> {
    return this.blobs.open('package', sha256);
  }
}
