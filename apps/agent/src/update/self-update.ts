import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AGENT_PROTOCOL_BASE, type AgentPlatform, type AgentUpdateOffer } from '@rota/contract';
import type { Logger } from '../logger.js';
import { errorMessage } from '../logger.js';
import {
  markerPath,
  previousPath,
  readMarker,
  readRejectedVersion,
  rejectedPath,
  removeMarker,
  writeMarker,
  writeRejectedVersion,
} from './marker.js';

/** Starts of a new executable without a successful hello after which the old one comes back. */
export const MAX_STARTS_WITHOUT_HELLO = 3;

/** The download could not be trusted (its SHA-256 or size is not the offer's). */
export class UpdateRejectedError extends Error {
  constructor(detail: string) {
    super(`update rejected: ${detail}`);
    this.name = 'UpdateRejectedError';
  }
}

/** The platform this agent's executable is built for, as the server names it; null: none. */
export function ownPlatform(
  platform: NodeJS.Platform = os.platform(),
  arch: string = os.arch(),
): AgentPlatform | null {
  if (arch !== 'x64') return null;
  if (platform === 'linux') return 'linux-x64';
  if (platform === 'win32') return 'win-x64';
  return null;
}

export type Download = (downloadPath: string, signal: AbortSignal) => Promise<Response>;

export interface SelfUpdaterOptions {
  /** The running executable (`process.execPath` of a packaged agent). */
  exe: string;
  version: string;
  logger: Logger;
  platform?: AgentPlatform | null;
  /** Windows cannot overwrite a running .exe, only rename it: the default follows the system. */
  windows?: boolean;
}

/**
 * A packaged agent replacing its own executable: the download checked against the offer, the
 * old executable kept as `<exe>.previous`, the new one in place, a marker counting its starts;
 * and at start, the marker confirmed by a successful hello or, after three starts without one,
 * the old executable put back.
 */
export class SelfUpdater {
  private readonly exe: string;
  private readonly logger: Logger;
  private readonly windows: boolean;

  constructor(private readonly options: SelfUpdaterOptions) {
    this.exe = path.resolve(options.exe);
    this.logger = options.logger;
    this.windows = options.windows ?? process.platform === 'win32';
  }

  get platform(): AgentPlatform | null {
    return this.options.platform === undefined ? ownPlatform() : this.options.platform;
  }

  /**
   * At start, before anything else: counts this start of a new executable, or rolls back to the
   * previous one (the caller exits so the service manager starts it). 'run' otherwise.
   */
  async onStart(): Promise<'run' | 'rolled-back'> {
    const marker = await readMarker(this.exe);
    if (!marker) return 'run';
    if (marker.starts >= MAX_STARTS_WITHOUT_HELLO) {
      this.logger.error(
        `update to ${marker.to}: ${marker.starts} starts without a successful hello; rolling back to ${marker.from}`,
      );
      const rolledBack = await this.rollBack();
      if (rolledBack) await writeRejectedVersion(this.exe, marker.to);
      return rolledBack ? 'rolled-back' : 'run';
    }
    const starts = marker.starts + 1;
    await writeMarker(this.exe, { ...marker, starts });
    this.logger.info(
      `update to ${marker.to}: start ${starts} of at most ${MAX_STARTS_WITHOUT_HELLO} before a roll-back`,
    );
    return 'run';
  }

  /** The new version's hello succeeded: the update is over, the old executable goes. */
  async confirm(): Promise<void> {
    const marker = await readMarker(this.exe);
    if (!marker) return;
    await removeMarker(this.exe);
    await rm(previousPath(this.exe), { force: true });
    await rm(rejectedPath(this.exe), { force: true });
    this.logger.info(`update from ${marker.from} to ${this.options.version} confirmed`);
  }

  /**
   * Downloads the offered executable next to this one, checks it, and puts it in place. On any
   * failure the running executable is left where it was and the download deleted.
   */
  async install(offer: AgentUpdateOffer, download: Download, signal: AbortSignal): Promise<void> {
    if (offer.platform !== this.platform) {
      throw new UpdateRejectedError(`built for ${offer.platform}, not ${this.platform ?? 'this'}`);
    }
    if ((await readRejectedVersion(this.exe)) === offer.version) {
      throw new UpdateRejectedError(`${offer.version} was rolled back here before`);
    }
    const dir = path.dirname(this.exe);
    const temp = path.join(dir, `.${path.basename(this.exe)}.${process.pid}.download`);
    this.logger.info(`update to ${offer.version}: downloading ${offer.bytes} bytes`);
    try {
      const res = await download(`${AGENT_PROTOCOL_BASE}/update/${offer.platform}`, signal);
      if (!res.body) throw new UpdateRejectedError('empty answer');
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(
        Readable.fromWeb(res.body as WebReadableStream),
        hashing,
        createWriteStream(temp, { mode: 0o755 }),
        { signal },
      );
      const sha256 = hash.digest('hex');
      const { size } = await stat(temp);
      if (sha256 !== offer.sha256) {
        throw new UpdateRejectedError(`SHA-256 ${sha256} is not the offered ${offer.sha256}`);
      }
      if (size !== offer.bytes) {
        throw new UpdateRejectedError(`${size} bytes, not the offered ${offer.bytes}`);
      }
      this.logger.info(`update to ${offer.version}: SHA-256 checked`);
      await chmod(temp, 0o755);
      await this.replaceWith(temp);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await writeMarker(this.exe, {
      from: this.options.version,
      to: offer.version,
      started_at: new Date().toISOString(),
      starts: 0,
    });
    this.logger.info(
      `update to ${offer.version}: in place (the old executable kept as ${path.basename(previousPath(this.exe))}, marker ${path.basename(markerPath(this.exe))})`,
    );
  }

  /**
   * The running executable is renamed away, never overwritten (Windows refuses to overwrite a
   * running .exe but lets it be renamed; Linux keeps running the renamed file's inode), then the
   * new one takes its name. A failure between the two puts the old one back.
   */
  private async replaceWith(file: string): Promise<void> {
    const previous = previousPath(this.exe);
    await rm(previous, { force: true });
    await rename(this.exe, previous);
    try {
      await rename(file, this.exe);
    } catch (error) {
      await rename(previous, this.exe).catch((back: unknown) =>
        this.logger.error(`update: could not put the old executable back: ${errorMessage(back)}`),
      );
      throw error;
    }
  }

  /** The previous executable back in place of the new one, and the marker gone; false: none kept. */
  private async rollBack(): Promise<boolean> {
    const previous = previousPath(this.exe);
    try {
      await stat(previous);
    } catch {
      this.logger.error('roll-back: no previous executable is kept; staying on this one');
      await removeMarker(this.exe);
      return false;
    }
    if (this.windows) {
      // The running (new) .exe can be renamed, not replaced.
      const failed = `${this.exe}.failed`;
      await rm(failed, { force: true });
      await rename(this.exe, failed);
      await rename(previous, this.exe);
    } else {
      await rename(previous, this.exe);
    }
    await removeMarker(this.exe);
    this.logger.info('roll-back: the previous executable is back in place');
    return true;
  }
}
