import { z } from 'zod';
import { idSchema } from './common.js';

/** One artifact's bytes at most (robot API `artifact/upload`). */
export const ARTIFACT_MAX_BYTES = 20 * 1024 * 1024;
/** Artifacts one execution may keep. */
export const ARTIFACT_MAX_PER_EXECUTION = 100;
/** Characters of an artifact's name. */
export const ARTIFACT_NAME_MAX = 200;
/** Types the console may show inline (thumbnails); never HTML or SVG. */
export const ARTIFACT_INLINE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
] as const;

/** `type/subtype`, lower case, no parameters (RFC 6838 restricted names). */
export const MEDIA_TYPE_PATTERN =
  /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/** One item of `POST /api/rota/activity/api/v1/artifact/index`. */
export const artifactSchema = z.object({
  rota_artifacts_id: z.number().int(),
  name: z.string(),
  media_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.string(),
});
export type Artifact = z.infer<typeof artifactSchema>;

export const artifactListResponseSchema = z.object({ data: z.array(artifactSchema) });
export type ArtifactListResponse = z.infer<typeof artifactListResponseSchema>;

/** `GET .../artifact/download?id=&inline=1` (inline only for ARTIFACT_INLINE_TYPES). */
export const artifactDownloadQuerySchema = z.object({
  id: idSchema,
  inline: z.enum(['0', '1']).optional(),
});
export type ArtifactDownloadQuery = z.infer<typeof artifactDownloadQuerySchema>;

/** `GET .../logs/download?id=`: an execution's whole log as text. */
export const executionLogDownloadQuerySchema = z.object({ id: idSchema });

/** Whether the console may show an artifact of this type inline. */
export function isInlineArtifactType(mediaType: string): boolean {
  return (ARTIFACT_INLINE_TYPES as readonly string[]).includes(mediaType);
}
