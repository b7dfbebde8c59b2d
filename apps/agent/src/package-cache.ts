import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ClaimedRun } from '@rota/contract';
import { abortReason, Backoff, DEFAULT_BACKOFF, sleep, type BackoffOptions } from './backoff.js';
import { errorMessage, type Logger } from './logger.js';
import { formatDelay, type ProtocolClient } from './protocol-client.js';

interface SharedDownload {
  promise: Promise<string>;
  controller: AbortController;
  waiters: number;
}

export type RunPackage = NonNullable<ClaimedRun['package']>;

/** The download does not match what the server announced: never retried, never cached. */
export class PackageIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageIntegrityError';
  }
}

const SHA256 = /^[a-f0-9]{64}$/;

/**
 * Packages on disk as `<dir>/<sha256>.<zip|tar.gz>`. A file only gets its final name after its
 * hash was checked, so a present file is a good one and is never downloaded again.
 */
export class PackageCache {
  private readonly inFlight = new Map<string, SharedDownload>();

  constructor(
    readonly dir: string,
    private readonly client: Pick<ProtocolClient, 'download'>,
    private readonly logger: Logger,
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
  ) {}

  /** Temp files of downloads a crash or kill interrupted; call before any download starts. */
  async removeLeftovers(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith('.') && name.endsWith('.tmp')) {
        await rm(path.join(this.dir, name), { force: true });
      }
    }
  }

  fileOf(pkg: Pick<RunPackage, 'sha256' | 'format'>): string {
    return path.join(this.dir, `${pkg.sha256.toLowerCase()}.${pkg.format}`);
  }

  async has(pkg: RunPackage): Promise<boolean> {
    const info = await stat(this.fileOf(pkg)).catch(() => null);
    return info !== null && info.isFile() && info.size === pkg.size_bytes;
  }

  /** The package's path, downloading it first when missing. */
  async get(pkg: RunPackage, signal: AbortSignal): Promise<string> {
    const sha256 = pkg.sha256.toLowerCase();
    // It becomes part of a file name: only a real hash may.
    if (!SHA256.test(sha256)) throw new PackageIntegrityError(`bad package sha256 "${pkg.sha256}"`);
    if (await this.has(pkg)) return this.fileOf(pkg);
    // Two slots claiming the same robot share one download, which stops when all gave up on it.
    let shared = this.inFlight.get(sha256);
    if (!shared) {
      const controller = new AbortController();
      const promise = this.download(pkg, controller.signal).finally(() =>
        this.inFlight.delete(sha256),
      );
      // A waiter may have left by then; the outcome is still observed.
      promise.catch(() => undefined);
      shared = { promise, controller, waiters: 0 };
      this.inFlight.set(sha256, shared);
    }
    const current = shared;
    current.waiters += 1;
    const leave = () => {
      current.waiters -= 1;
      if (current.waiters === 0) current.controller.abort(signal.reason);
    };
    signal.addEventListener('abort', leave, { once: true });
    try {
      return await Promise.race([current.promise, abortedPromise(signal)]);
    } finally {
      signal.removeEventListener('abort', leave);
    }
  }

  private async download(pkg: RunPackage, signal: AbortSignal): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const backoff = new Backoff(this.backoff);
    for (;;) {
      // The client already retries until the server answers; what it throws is final.
      const res = await this.client.download(pkg.download_path, signal);
      const temp = path.join(
        this.dir,
        `.${pkg.sha256.toLowerCase()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
      );
      try {
        await this.save(pkg, res, temp, signal);
        const target = this.fileOf(pkg);
        await rename(temp, target);
        return target;
      } catch (error) {
        await rm(temp, { force: true });
        if (error instanceof PackageIntegrityError || signal.aborted) throw error;
        if (!isNetworkError(error)) throw error;
        const delay = backoff.nextDelayMs();
        this.logger.warn(
          `package ${pkg.sha256}: download broke off (${errorMessage(error)}); retrying in ${formatDelay(delay)}`,
        );
        await sleep(delay, signal);
      }
    }
  }

  /** Streams the body to `temp`, checking size and hash on the way. */
  private async save(
    pkg: RunPackage,
    res: Response,
    temp: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (!res.body) throw new PackageIntegrityError('the package download was empty');
    const hash = createHash('sha256');
    let size = 0;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > pkg.size_bytes) {
          callback(
            new PackageIntegrityError(
              `package download is bigger than the announced ${pkg.size_bytes} bytes`,
            ),
          );
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(
      Readable.fromWeb(res.body as WebReadableStream),
      check,
      createWriteStream(temp, { flags: 'wx' }),
      { signal },
    );
    if (size !== pkg.size_bytes) {
      throw new PackageIntegrityError(
        `package download has ${size} bytes, the server announced ${pkg.size_bytes}`,
      );
    }
    const actual = hash.digest('hex');
    if (actual !== pkg.sha256.toLowerCase()) {
      throw new PackageIntegrityError(
        `package sha256 mismatch: got ${actual}, the server announced ${pkg.sha256}`,
      );
    }
  }
}

function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(abortReason(signal));
    else signal.addEventListener('abort', () => reject(abortReason(signal)), { once: true });
  });
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  // Local disk trouble (ENOSPC, EACCES…) is not fixed by downloading again.
  if (/^E(NOSPC|ACCES|PERM|ROFS|DQUOT|EXIST)$/.test(code)) return false;
  return true;
}
