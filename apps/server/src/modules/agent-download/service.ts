import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  AGENT_PLATFORMS,
  agentReleaseManifestSchema,
  type AgentDownloadIndex,
  type AgentPlatform,
  type AgentReleaseManifest,
} from '@rota/contract';
import { AppError } from '../../lib/errors.js';
import { SERVER_ROOT } from '../../lib/server-root.js';

/** Where `npm run package:agent` writes, beside this server in the repository. */
const DEFAULT_RELEASE_DIR = path.join(SERVER_ROOT, '../agent/release');

/** AGENT_RELEASE_DIR (relative: to the working directory, as DATA_DIR), else the default. */
export function agentReleaseDir(configured: string | undefined): string {
  return configured ? path.resolve(configured) : DEFAULT_RELEASE_DIR;
}

const MANIFEST = 'manifest.json';
/** A manifest is a few hundred bytes; anything far larger is not one. */
const MANIFEST_MAX_BYTES = 64 * 1024;

const buildMissing = () => new AppError('agent_build_missing');

const isMissingFile = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' ||
  (error as NodeJS.ErrnoException | undefined)?.code === 'ENOTDIR';

export interface AgentDownload {
  file: string;
  sha256: string;
  bytes: number;
  stream: Readable;
}

/**
 * The agent executables this server ships, as `npm run package:agent` left them: its manifest
 * and files, read on each call, so a new build is served without a restart. Whatever is wrong
 * with them (absent, corrupt, a file whose size is not the manifest's) answers
 * `agent_build_missing`; what was corrupt is logged for the administrator.
 */
export class AgentDownloadService {
  constructor(
    private readonly dir: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  async index(): Promise<AgentDownloadIndex> {
    const manifest = await this.manifest();
    const platforms: AgentDownloadIndex['platforms'] = [];
    for (const platform of AGENT_PLATFORMS) {
      const entry = manifest.files[platform];
      if (!entry) continue;
      const size = await stat(path.join(this.dir, entry.file)).then(
        (s) => (s.isFile() ? s.size : null),
        () => null,
      );
      if (size === entry.bytes) platforms.push({ platform, ...entry });
    }
    if (platforms.length === 0) throw buildMissing();
    return { version: manifest.version, platforms };
  }

  /** One executable, opened; its SHA-256 is the manifest's, which the packaging computed. */
  async open(platform: AgentPlatform): Promise<AgentDownload> {
    const manifest = await this.manifest();
    const entry = manifest.files[platform];
    if (!entry) throw buildMissing();
    let handle: FileHandle;
    try {
      handle = await open(path.join(this.dir, entry.file), 'r');
    } catch (error) {
      if (isMissingFile(error)) throw buildMissing();
      throw error;
    }
    try {
      const info = await handle.stat();
      // A build being written, or a file replaced without its manifest: not what it says.
      if (!info.isFile() || info.size !== entry.bytes) {
        this.log.warn(
          { file: entry.file, bytes: info.size, manifest_bytes: entry.bytes },
          'the packaged agent does not match its manifest; not served',
        );
        throw buildMissing();
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return { ...entry, stream: handle.createReadStream() };
  }

  /** What is packaged now, or null when nothing (valid) is: the agents' update offers read it. */
  async release(): Promise<AgentReleaseManifest | null> {
    try {
      return await this.manifest();
    } catch (error) {
      if (error instanceof AppError && error.code === 'agent_build_missing') return null;
      throw error;
    }
  }

  private async manifest(): Promise<AgentReleaseManifest> {
    const file = path.join(this.dir, MANIFEST);
    let text: string;
    try {
      const info = await stat(file);
      if (!info.isFile() || info.size > MANIFEST_MAX_BYTES) return this.corrupt(file, 'too large');
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isMissingFile(error)) throw buildMissing();
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.corrupt(file, 'not JSON');
    }
    const parsed = agentReleaseManifestSchema.safeParse(json);
    if (!parsed.success) {
      return this.corrupt(
        file,
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    }
    return parsed.data;
  }

  private corrupt(file: string, problem: string): never {
    this.log.warn({ file, problem }, 'the packaged agent’s manifest is not valid; not served');
    throw buildMissing();
  }
}
