import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import {
  BlobIntegrityError,
  isBlobName,
  type BlobKind,
  type BlobSource,
  type BlobStore,
  type OpenedBlob,
  type Referenced,
} from './blob-store.js';
import {
  blobNames,
  deleteBlob,
  deleteUnusedBlobs,
  findBlob,
  insertBlob,
  insertBlobChunk,
  readBlobChunk,
  touchBlob,
} from './repository.js';

/** Bytes per `blob_chunks` row: one statement's parameter, small enough to stream. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/** pg answers bytea as a Buffer, PGlite as a Uint8Array. */
const asBuffer = (data: Buffer | Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Cuts a stream of any chunk sizes into pieces of exactly `size` bytes (the last shorter). */
async function* pieces(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (length + rest.length >= size) {
      const take = size - length;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/**
 * Blobs in PostgreSQL: a `blobs` row and its bytes in 1 MiB `blob_chunks`, written in one
 * transaction (so no instance sees half a blob) and read back one chunk per statement, so
 * neither side ever holds a whole package in memory.
 */
export class PostgresBlobStore implements BlobStore {
  readonly backend = 'postgres';

  constructor(private readonly db: Db) {}

  async put(db: Db, kind: BlobKind, name: string, source: BlobSource): Promise<void> {
    if (!isBlobName(kind, name)) throw new Error(`not a ${kind} name: ${name}`);
    // A savepoint inside the caller's transaction, or a transaction of its own.
    await db.transaction(async (tx) => {
      // Renewing an existing blob locks its row: a sweep deleting it waits for us, then sees
      // the new time and leaves it (or it deleted it first, and we find nothing to renew).
      if (await touchBlob(tx, kind, name)) return;
      const created = await insertBlob(tx, {
        kind,
        name,
        sha256: source.sha256,
        size: source.size,
      });
      if (created === undefined) {
        // Another transaction wrote the same bytes and committed while we waited on it.
        await touchBlob(tx, kind, name);
        return;
      }
      const input: AsyncIterable<Buffer> = source.file
        ? createReadStream(source.file, { highWaterMark: BLOB_CHUNK_BYTES })
        : Readable.from([source.data ?? Buffer.alloc(0)]);
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      for await (const piece of pieces(input, BLOB_CHUNK_BYTES)) {
        hash.update(piece);
        size += piece.length;
        await insertBlobChunk(tx, created, seq, piece);
        seq += 1;
      }
      if (size !== source.size || hash.digest('hex') !== source.sha256) {
        throw new BlobIntegrityError(`${kind} ${name}: the bytes do not match their sha256`);
      }
    });
  }

  async open(kind: BlobKind, name: string): Promise<OpenedBlob | null> {
    if (!isBlobName(kind, name)) return null;
    const blob = await findBlob(this.db, kind, name);
    if (!blob) return null;
    const { id, size } = blob;
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      const hash = createHash('sha256');
      let sent = 0;
      for (let seq = 0; sent < size; seq += 1) {
        const chunk = await readBlobChunk(db, id, seq);
        // Deleted while being read, or damaged: break the answer rather than end it short.
        if (!chunk) throw new BlobIntegrityError(`${kind} ${name}: chunk ${seq} is missing`);
        const data = asBuffer(chunk);
        hash.update(data);
        sent += data.length;
        yield data;
      }
      if (sent !== size || hash.digest('hex') !== blob!.sha256) {
        throw new BlobIntegrityError(`${kind} ${name}: the bytes do not match their sha256`);
      }
    }
    return { stream: Readable.from(chunks(), { objectMode: false }), size };
  }

  async remove(db: Db, kind: BlobKind, name: string): Promise<void> {
    await deleteBlob(db, kind, name);
  }

  names(kind: BlobKind): Promise<string[]> {
    return blobNames(this.db, kind);
  }

  async sweep(db: Db, kind: BlobKind, before: Date, referenced: Referenced): Promise<string[]> {
    // A blob being written is invisible until its transaction commits, together with the row
    // that uses it; one being reused is touched under its row lock (see `put`).
    const removed = await deleteUnusedBlobs(db, kind, before, (name) => referenced.exists(name));
    return removed.sort();
  }
}
