import type { Readable } from 'node:stream';
import {
  ARTIFACT_MAX_BYTES,
  ARTIFACT_MAX_PER_EXECUTION,
  ARTIFACT_NAME_MAX,
  MEDIA_TYPE_PATTERN,
  type Artifact,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { clientFileName } from '../../http/multipart-form.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import { systemScope, type TenantScope } from '../../lib/tenant-scope.js';
import type { BlobStore, OpenedBlob } from '../blobs/blob-store.js';
import type { RunIdentity } from '../run-api/run-api-service.js';
import { PackageStore, TooLarge, type ReceivedFile } from '../robot-versions/package-store.js';
import { lockPackage } from '../robot-versions/package-lock.js';
import { lockExecutionArtifacts } from './lock.js';
import {
  countArtifacts,
  executionVisible,
  findArtifact,
  insertArtifact,
  listArtifacts,
  type ArtifactRow,
} from './repository.js';

/** The multipart part that carries the file; `name` is the optional text part. */
export const ARTIFACT_FILE_PART = 'file';

const toArtifact = (row: ArtifactRow): Artifact => ({
  rota_artifacts_id: row.rota_artifacts_id,
  name: row.name,
  media_type: row.media_type,
  size: Number(row.size),
  sha256: row.sha256,
  created_at: iso(row.created_at),
});

/** What a robot sent, still in a temp file. */
export interface IncomingArtifact {
  file: ReceivedFile;
  /** The part's file name, as the client sent it. */
  fileName: string;
  /** The part's content type, as the client sent it. */
  contentType: string;
}

/**
 * A given name must already be clean (no separators, no control characters, not `.`/`..`, at
 * most ARTIFACT_NAME_MAX): it is refused rather than changed, so the robot learns of it.
 */
export function artifactName(given: string | undefined, fileName: string): string {
  if (given === undefined || given === '') {
    const name = clientFileName(fileName, ARTIFACT_NAME_MAX);
    return name === '' || name === '.' || name === '..' ? 'artifact' : name;
  }
  const name = given.trim();
  const bad =
    name === '' ||
    name === '.' ||
    name === '..' ||
    [...name].length > ARTIFACT_NAME_MAX ||
    /[/\\]/.test(name) ||
    [...name].some((ch) => ch < ' ' || ch === '\u007f');
  if (bad) throw invalidField('name', 'artifact_name_invalid');
  return name;
}

/** `type/subtype` of a part's content type, lower case, parameters dropped. */
export function artifactMediaType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '') return 'application/octet-stream';
  if (!MEDIA_TYPE_PATTERN.test(type))
    throw invalidField('media_type', 'artifact_media_type_invalid');
  return type;
}

/**
 * Evidence of a run: files a robot uploads while it runs, kept in the blob store by
 * sha256 (shared by content, like packages), listed and downloaded with the execution's logs'
 * guard. A row per artifact; the blob sweep keeps a blob while some row names it.
 */
export class ArtifactService {
  private readonly files: PackageStore;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    dataDir: string,
    readonly maxBytes: number = ARTIFACT_MAX_BYTES,
    readonly maxPerExecution: number = ARTIFACT_MAX_PER_EXECUTION,
  ) {
    // Only its temp folder and streaming check are used (DATA_DIR/packages/tmp, swept).
    this.files = new PackageStore(dataDir, blobs);
  }

  /** Streams a part to a temp file; more than `maxBytes` is refused with nothing kept. */
  async receive(
    stream: Readable,
    fileName: string,
    contentType: string,
  ): Promise<IncomingArtifact> {
    try {
      const file = await this.files.receive(stream, this.maxBytes);
      return { file, fileName, contentType };
    } catch (error) {
      if (error instanceof TooLarge) throw invalidField(ARTIFACT_FILE_PART, 'artifact_too_large');
      throw error;
    }
  }

  async discard(incoming: IncomingArtifact | undefined): Promise<void> {
    if (incoming) await this.files.discard(incoming.file.tempPath);
  }

  /** Keeps an upload of a processing run (the caller checked the token just before). */
  async create(
    run: RunIdentity,
    fields: Record<string, string>,
    incoming: IncomingArtifact | undefined,
  ): Promise<Artifact> {
    try {
      if (!incoming) throw invalidField(ARTIFACT_FILE_PART, 'artifact_file_missing');
      const name = artifactName(fields.name, incoming.fileName);
      const mediaType = artifactMediaType(fields.media_type ?? incoming.contentType);
      const scope = systemScope(run.rota_clients_id);
      const { file } = incoming;
      const row = await this.db.transaction(async (tx) => {
        await lockExecutionArtifacts(tx, run.rota_executions_id);
        if ((await countArtifacts(tx, scope, run.rota_executions_id)) >= this.maxPerExecution) {
          throw invalidField(ARTIFACT_FILE_PART, 'artifact_limit');
        }
        // Files are one blob per content, packages and artifacts alike (the same lock).
        await lockPackage(tx, file.sha256);
        await this.blobs.put(tx, 'package', file.sha256, {
          sha256: file.sha256,
          size: file.size,
          file: file.tempPath,
        });
        return insertArtifact(tx, scope, {
          rota_executions_id: run.rota_executions_id,
          name,
          media_type: mediaType,
          size: file.size,
          sha256: file.sha256,
          blob_name: file.sha256,
        });
      });
      return toArtifact(row);
    } finally {
      await this.discard(incoming);
    }
  }

  async list(scope: TenantScope, executionId: number): Promise<Artifact[]> {
    if (!(await executionVisible(this.db, scope, executionId))) throw notFound();
    return (await listArtifacts(this.db, scope, executionId)).map(toArtifact);
  }

  async open(scope: TenantScope, id: number): Promise<{ artifact: Artifact; blob: OpenedBlob }> {
    const row = await findArtifact(this.db, scope, id);
    if (!row) throw notFound();
    const blob = await this.blobs.open('package', row.blob_name);
    // A row without its blob: DATA_DIR lost it (the database never does).
    if (!blob) throw new AppError('not_found');
    return { artifact: toArtifact(row), blob };
  }
}
