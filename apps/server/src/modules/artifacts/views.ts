import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaArtifacts } from '../../db/schema/artifacts.js';

const qb = new QueryBuilder();

/** Read-only: the blobs artifacts use (the blob sweep keeps these). */
export const artifactBlobs = qb
  .select({ blob_name: rotaArtifacts.blob_name })
  .from(rotaArtifacts)
  .as('artifact_blobs');
