import { z } from 'zod';
import { msg } from './messages.js';

/** The platforms `npm run package:agent` builds an executable for. */
export const AGENT_PLATFORMS = ['linux-x64', 'win-x64'] as const;
export type AgentPlatform = (typeof AGENT_PLATFORMS)[number];

/** `/api/rota/agent/download/api/v1`: what this server packaged, for users with AGENTES.LIST. */
export const AGENT_DOWNLOAD_BASE = '/api/rota/agent/download/api/v1';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * `apps/agent/release/manifest.json`, written by `npm run package:agent`. The server reads it
 * from disk, so it is checked like any input: file names are bare names in the release folder.
 */
export const agentReleaseManifestSchema = z.object({
  version: z.string().trim().min(1).max(64),
  built_at: z.string().optional(),
  files: z.partialRecord(
    z.enum(AGENT_PLATFORMS),
    z.object({
      file: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
      sha256: sha256Hex,
      bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    }),
  ),
});
export type AgentReleaseManifest = z.infer<typeof agentReleaseManifestSchema>;

export const agentDownloadPlatformSchema = z.object({
  platform: z.enum(AGENT_PLATFORMS),
  /** The name the download is saved under. */
  file: z.string(),
  sha256: z.string(),
  bytes: z.number().int(),
});
export type AgentDownloadPlatform = z.infer<typeof agentDownloadPlatformSchema>;

/** `GET index`: the packaged agent's version and its executables. */
export const agentDownloadIndexSchema = z.object({
  data: z.object({
    version: z.string(),
    platforms: z.array(agentDownloadPlatformSchema),
  }),
});
export type AgentDownloadIndex = z.infer<typeof agentDownloadIndexSchema>['data'];

/** `GET {platform}`: one executable, with its SHA-256 in `X-Rota-SHA256`. */
export const agentDownloadParamsSchema = z.object({
  platform: z.enum(AGENT_PLATFORMS, { error: msg('invalid_value') }),
});

/** The header the executable's SHA-256 (hex) travels in. */
export const AGENT_SHA256_HEADER = 'x-rota-sha256';
