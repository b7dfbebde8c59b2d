import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { BlobKind } from './blob-store.js';

/**
 * The statements of the PostgreSQL blob store (`blobs` and their `blob_chunks`). Blobs are
 * shared by content across clients and belong to no tenant: no scope here.
 */

async function rows<T>(db: Db, statement: SQL): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}

/**
 * Renews a blob's `touched_at`, locking its row: a sweep deleting it waits for us, then sees
 * the new time and leaves it. Answers whether there was one to renew.
 */
export async function touchBlob(db: Db, kind: BlobKind, name: string): Promise<boolean> {
  const touched = await rows(
    db,
    sql`update blobs set touched_at = now()
         where kind = ${kind} and name = ${name} returning blobs_id`,
  );
  return touched.length > 0;
}

/** A new blob's row; undefined when another transaction holds the name already. */
export async function insertBlob(
  db: Db,
  values: { kind: BlobKind; name: string; sha256: string; size: number },
): Promise<number | undefined> {
  const [created] = await rows<{ blobs_id: number }>(
    db,
    sql`insert into blobs (kind, name, sha256, size_bytes)
        values (${values.kind}, ${values.name}, ${values.sha256}, ${values.size})
        on conflict (kind, name) do nothing returning blobs_id`,
  );
  return created?.blobs_id;
}

export async function insertBlobChunk(db: Db, blobId: number, seq: number, data: Buffer) {
  await db.execute(
    sql`insert into blob_chunks (blobs_id, seq, data) values (${blobId}, ${seq}, ${data})`,
  );
}

export async function findBlob(db: Db, kind: BlobKind, name: string) {
  const [blob] = await rows<{
    blobs_id: number | string;
    sha256: string;
    size_bytes: number | string;
  }>(
    db,
    sql`select blobs_id, sha256, size_bytes from blobs where kind = ${kind} and name = ${name}`,
  );
  return blob && { id: Number(blob.blobs_id), sha256: blob.sha256, size: Number(blob.size_bytes) };
}

/** One chunk's bytes (pg answers bytea as a Buffer, PGlite as a Uint8Array). */
export async function readBlobChunk(
  db: Db,
  blobId: number,
  seq: number,
): Promise<Buffer | Uint8Array | undefined> {
  const [chunk] = await rows<{ data: Buffer | Uint8Array }>(
    db,
    sql`select data from blob_chunks where blobs_id = ${blobId} and seq = ${seq}`,
  );
  return chunk?.data;
}

/** Its chunks go with it (cascade). */
export async function deleteBlob(db: Db, kind: BlobKind, name: string): Promise<void> {
  await db.execute(sql`delete from blobs where kind = ${kind} and name = ${name}`);
}

export async function blobNames(db: Db, kind: BlobKind): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`select name from blobs where kind = ${kind} order by name`,
  );
  return found.map((row) => row.name);
}

/**
 * Deletes, in one statement, the blobs of `kind` untouched since `before` that `used` (an SQL
 * condition over the blob's name) says nobody uses; answers their names.
 */
export async function deleteUnusedBlobs(
  db: Db,
  kind: BlobKind,
  before: Date,
  used: (name: SQL) => SQL,
): Promise<string[]> {
  const removed = await rows<{ name: string }>(
    db,
    sql`delete from blobs b
         where b.kind = ${kind} and b.touched_at < ${before.toISOString()}::timestamptz
           and not ${used(sql`b.name`)}
     returning b.name`,
  );
  return removed.map((row) => row.name);
}
