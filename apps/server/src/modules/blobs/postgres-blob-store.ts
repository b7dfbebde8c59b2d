import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
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

/** Bytes per `blob_chunks` row: one statement's parameter, small enough to stream. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

async function rows<T>(db: Db, statement: SQL): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}

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
      const touch = sql`update blobs set touched_at = now()
                         where kind = ${kind} and name = ${name} returning blobs_id`;
      if ((await rows(tx, touch)).length > 0) return;
      const [created] = await rows<{ blobs_id: number }>(
        tx,
        sql`insert into blobs (kind, name, sha256, size_bytes)
            values (${kind}, ${name}, ${source.sha256}, ${source.size})
            on conflict (kind, name) do nothing returning blobs_id`,
      );
      if (!created) {
        // Another transaction wrote the same bytes and committed while we waited on it.
        await rows(tx, touch);
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
        await tx.execute(
          sql`insert into blob_chunks (blobs_id, seq, data)
              values (${created.blobs_id}, ${seq}, ${piece})`,
        );
        seq += 1;
      }
      if (size !== source.size || hash.digest('hex') !== source.sha256) {
        throw new BlobIntegrityError(`${kind} ${name}: the bytes do not match their sha256`);
      }
    });
  }

  async open(kind: BlobKind, name: string): Promise<OpenedBlob | null> {
    if (!isBlobName(kind, name)) return null;
    const [blob] = await rows<{
      blobs_id: number | string;
      sha256: string;
      size_bytes: number | string;
    }>(
      this.db,
      sql`select blobs_id, sha256, size_bytes from blobs where kind = ${kind} and name = ${name}`,
    );
    if (!blob) return null;
    const id = Number(blob.blobs_id);
    const size = Number(blob.size_bytes);
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      const hash = createHash('sha256');
      let sent = 0;
      for (let seq = 0; sent < size; seq += 1) {
        const [chunk] = await rows<{ data: Buffer | Uint8Array }>(
          db,
          sql`select data from blob_chunks where blobs_id = ${id} and seq = ${seq}`,
        );
        // Deleted while being read, or damaged: break the answer rather than end it short.
        if (!chunk) throw new BlobIntegrityError(`${kind} ${name}: chunk ${seq} is missing`);
        const data = asBuffer(chunk.data);
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
    await db.execute(sql`delete from blobs where kind = ${kind} and name = ${name}`);
  }

  async names(kind: BlobKind): Promise<string[]> {
    const found = await rows<{ name: string }>(
      this.db,
      sql`select name from blobs where kind = ${kind} order by name`,
    );
    return found.map((row) => row.name);
  }

  async sweep(db: Db, kind: BlobKind, before: Date, referenced: Referenced): Promise<string[]> {
    // A blob being written is invisible until its transaction commits, together with the row
    // that uses it; one being reused is touched under its row lock (see `put`).
    const removed = await rows<{ name: string }>(
      db,
      sql`delete from blobs b
           where b.kind = ${kind} and b.touched_at < ${before.toISOString()}::timestamptz
             and not ${referenced.exists(sql`b.name`)}
       returning b.name`,
    );
    return removed.map((row) => row.name).sort();
  }
}
