import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import { PackageCache, PackageIntegrityError, type RunPackage } from '../src/package-cache.js';
import { sha256, tempDir } from './helpers/archives.js';

const fast = { initialMs: 10, maxMs: 20 };
const content = Buffer.from('pretend this is a zip');

function pkg(overrides: Partial<RunPackage> = {}): RunPackage {
  return {
    rota_robot_versions_id: 1,
    version: '1.0.0',
    sha256: sha256(content),
    size_bytes: content.length,
    format: 'zip',
    download_path: '/api/rota/agent/api/v1/package/x',
    ...overrides,
  };
}

/** A stand-in for the client's download: answers from a list, counting calls. */
function fakeClient(answers: (() => Response)[]) {
  const calls: string[] = [];
  return {
    calls,
    client: {
      download: async (downloadPath: string) => {
        calls.push(downloadPath);
        const next = answers.shift();
        if (!next) throw new Error('no more answers');
        return next();
      },
    },
  };
}

/** A body that sends some bytes, then breaks like a cut connection. */
function brokenBody(): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(content.subarray(0, 5));
      controller.error(new Error('socket hang up'));
    },
  });
  return new Response(stream);
}

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PackageCache', () => {
  it('downloads once, verifies, and names the file by its hash', async () => {
    const { client, calls } = fakeClient([() => new Response(content)]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    const file = await cache.get(pkg(), new AbortController().signal);
    expect(file).toBe(path.join(dir, `${sha256(content)}.zip`));
    expect(await readFile(file)).toEqual(content);
    // Cached: no second download.
    expect(await cache.get(pkg(), new AbortController().signal)).toBe(file);
    expect(calls).toHaveLength(1);
  });

  it('refuses a sha256 mismatch and leaves nothing behind', async () => {
    const { client } = fakeClient([() => new Response(content)]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    const wrong = pkg({ sha256: 'f'.repeat(64) });
    await expect(cache.get(wrong, new AbortController().signal)).rejects.toThrow(
      PackageIntegrityError,
    );
    await expect(cache.get(wrong, new AbortController().signal)).rejects.toThrow(/no more answers/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a download of another size than announced', async () => {
    const { client } = fakeClient([
      () => new Response(content),
      () => new Response(Buffer.concat([content, Buffer.from('more')])),
    ]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    await expect(
      cache.get(pkg({ size_bytes: content.length + 1 }), new AbortController().signal),
    ).rejects.toThrow(/has 21 bytes/);
    await expect(cache.get(pkg(), new AbortController().signal)).rejects.toThrow(/bigger/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a sha256 that is not a hash before touching the disk', async () => {
    const { client, calls } = fakeClient([]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    await expect(
      cache.get(pkg({ sha256: '../../etc/passwd' }), new AbortController().signal),
    ).rejects.toThrow(/bad package sha256/);
    expect(calls).toEqual([]);
  });

  it('starts again when the stream breaks midway', async () => {
    const { client, calls } = fakeClient([brokenBody, () => new Response(content)]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    const file = await cache.get(pkg(), new AbortController().signal);
    expect(await readFile(file)).toEqual(content);
    expect(calls).toHaveLength(2);
    expect(await readdir(dir)).toEqual([path.basename(file)]);
  });

  it('removes temp files an interrupted download left, and only those', async () => {
    const { client } = fakeClient([() => new Response(content)]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    const file = await cache.get(pkg(), new AbortController().signal);
    await writeFile(path.join(dir, `.${sha256(content)}.123.abcd.tmp`), 'half');
    await cache.removeLeftovers();
    expect(await readdir(dir)).toEqual([path.basename(file)]);
  });

  it('shares one download between two simultaneous runs', async () => {
    const { client, calls } = fakeClient([() => new Response(content)]);
    const cache = new PackageCache(dir, client, silentLogger, fast);
    const [a, b] = await Promise.all([
      cache.get(pkg(), new AbortController().signal),
      cache.get(pkg(), new AbortController().signal),
    ]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
    expect(existsSync(a)).toBe(true);
  });
});
