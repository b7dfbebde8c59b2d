import type { Readable } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { DiskBlobStore } from './disk-blob-store.js';
import { PostgresBlobStore } from './postgres-blob-store.js';

/**
 * What a blob is: a picture (`<sha256>.<ext>`) or, named by its sha256, any other file: a robot
 * package or a run's artifact (the same bytes are one blob, whoever uses them).
 */
export type BlobKind = 'package' | 'avatar';
export const BLOB_KINDS: readonly BlobKind[] = ['package', 'avatar'];

/** Bytes to keep: a local file (which the store may move away) or, when small, a buffer. */
export interface BlobSource {
  sha256: string;
  size: number;
  file?: string;
  data?: Buffer;
}

export interface OpenedBlob {
  stream: Readable;
  size: number;
}

/** The bytes did not hash to what the caller said: nothing was kept. */
export class BlobIntegrityError extends Error {}

/**
 * Where packages and pictures live: on disk under DATA_DIR with the embedded database, in
 * PostgreSQL otherwise, so that any instance serves what another one received. Names are
 * content-addressed: the bytes behind a name never change, and a `put` of a name already held
 * only renews its `touched` time (which the orphan sweep's grace period counts from).
 */
export interface BlobStore {
  readonly backend: 'disk' | 'postgres';
  /**
   * Keeps the bytes under `name`, all or nothing. `db` may be a transaction: on PostgreSQL the
   * blob is then written in it (visible when it commits, gone if it rolls back).
   */
  put(db: Db, kind: BlobKind, name: string, source: BlobSource): Promise<void>;
  /** A stream of the bytes (checked against their sha256 as they go), or null when absent. */
  open(kind: BlobKind, name: string): Promise<OpenedBlob | null>;
  remove(db: Db, kind: BlobKind, name: string): Promise<void>;
  /** The names kept, for the sweep and tests. */
  names(kind: BlobKind): Promise<string[]>;
  /**
   * Removes the blobs of `kind` untouched since `before` that `referenced` says nobody uses.
   * Answers the names removed.
   */
  sweep(db: Db, kind: BlobKind, before: Date, referenced: Referenced): Promise<string[]>;
}

/** Whether some row still uses a blob; `lock` serialises with uploads of the same name. */
export interface Referenced {
  /** An SQL condition over the blob's name (a column or a parameter). */
  exists(name: SQL): SQL;
  /** Taken, in the transaction, before a blob on disk is checked and removed. */
  lock?(tx: Db, name: string): Promise<void>;
}

/** PostgreSQL (a pg pool behind drizzle) keeps blobs in the database; PGlite on disk. */
export function createBlobStore(db: Db, dataDir: string): BlobStore {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? new PostgresBlobStore(db) : new DiskBlobStore(dataDir);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const AVATAR_NAME = /^[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

/** A name this module could have made; anything else never reaches a path or a query. */
export function isBlobName(kind: BlobKind, name: string): boolean {
  return kind === 'avatar' ? AVATAR_NAME.test(name) : SHA256_HEX.test(name);
}
