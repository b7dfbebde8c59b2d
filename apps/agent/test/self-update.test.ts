import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentUpdateOffer } from '@rota/contract';
import { readMarker, writeMarker } from '../src/update/marker.js';
import {
  MAX_STARTS_WITHOUT_HELLO,
  ownPlatform,
  SelfUpdater,
  UpdateRejectedError,
} from '../src/update/self-update.js';
import type { Logger } from '../src/logger.js';

const OLD = Buffer.from('#!/bin/sh\necho old\n');
const NEW = Buffer.from('#!/bin/sh\necho new build\n');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const OFFER: AgentUpdateOffer = {
  version: '3.2.0',
  platform: 'linux-x64',
  sha256: sha256(NEW),
  bytes: NEW.length,
};

let dir: string;
let exe: string;
const lines: string[] = [];
const logger: Logger = {
  info: (m) => lines.push(`info ${m}`),
  warn: (m) => lines.push(`warn ${m}`),
  error: (m) => lines.push(`error ${m}`),
};
const served = (bytes: Buffer) => async () => new Response(bytes);
const updater = (options: { windows?: boolean } = {}) =>
  new SelfUpdater({ exe, version: '3.1.0', logger, platform: 'linux-x64', ...options });

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rota-self-update-'));
  exe = path.join(dir, 'rota-agent');
  await writeFile(exe, OLD, { mode: 0o755 });
  lines.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('self update', () => {
  it('puts a checked download in place, keeps the old one as .previous and writes the marker', async () => {
    await updater().install(OFFER, served(NEW), new AbortController().signal);
    expect(await readFile(exe)).toEqual(NEW);
    expect((await stat(exe)).mode & 0o777).toBe(0o755);
    expect(await readFile(`${exe}.previous`)).toEqual(OLD);
    expect(await readMarker(exe)).toMatchObject({ from: '3.1.0', to: '3.2.0', starts: 0 });
    expect((await readdir(dir)).sort()).toEqual([
      'rota-agent',
      'rota-agent.previous',
      'update.json',
    ]);
  });

  it('a download whose SHA-256 is not the offer’s is deleted and changes nothing', async () => {
    const wrong = Buffer.from('#!/bin/sh\necho tampered\n');
    await expect(
      updater().install(
        { ...OFFER, bytes: wrong.length },
        served(wrong),
        new AbortController().signal,
      ),
    ).rejects.toBeInstanceOf(UpdateRejectedError);
    expect(await readFile(exe)).toEqual(OLD);
    expect(await readdir(dir)).toEqual(['rota-agent']);
  });

  it('a download of another size is refused too, and so is another platform’s build', async () => {
    await expect(
      updater().install(
        { ...OFFER, bytes: NEW.length + 1 },
        served(NEW),
        new AbortController().signal,
      ),
    ).rejects.toThrow(/bytes, not the offered/);
    await expect(
      updater().install(
        { ...OFFER, platform: 'win-x64' },
        served(NEW),
        new AbortController().signal,
      ),
    ).rejects.toThrow(/built for win-x64/);
    expect(await readdir(dir)).toEqual(['rota-agent']);
  });

  it('counts the new executable’s starts, and a successful hello removes the marker and .previous', async () => {
    await updater().install(OFFER, served(NEW), new AbortController().signal);
    const started = new SelfUpdater({ exe, version: '3.2.0', logger, platform: 'linux-x64' });
    expect(await started.onStart()).toBe('run');
    expect((await readMarker(exe))?.starts).toBe(1);
    expect(await started.onStart()).toBe('run');
    expect((await readMarker(exe))?.starts).toBe(2);
    await started.confirm();
    expect(await readdir(dir)).toEqual(['rota-agent']);
    expect(await readFile(exe)).toEqual(NEW);
    expect(await started.onStart()).toBe('run');
  });

  it(`after ${MAX_STARTS_WITHOUT_HELLO} starts without a hello, the previous executable comes back`, async () => {
    await updater().install(OFFER, served(NEW), new AbortController().signal);
    const started = new SelfUpdater({ exe, version: '3.2.0', logger, platform: 'linux-x64' });
    for (let i = 0; i < MAX_STARTS_WITHOUT_HELLO; i += 1)
      expect(await started.onStart()).toBe('run');
    expect(await started.onStart()).toBe('rolled-back');
    expect(await readFile(exe)).toEqual(OLD);
    expect(await readdir(dir)).toEqual(['rota-agent', 'update-rejected.json']);
    expect(lines.some((l) => l.startsWith('error') && l.includes('rolling back to 3.1.0'))).toBe(
      true,
    );
    // The server still offers it: it is refused without a download, a newer one is taken.
    const download = async () => {
      throw new Error('not downloaded');
    };
    await expect(updater().install(OFFER, download, new AbortController().signal)).rejects.toThrow(
      /3.2.0 was rolled back here before/,
    );
    const next = Buffer.from('#!/bin/sh\necho fixed build\n');
    await updater().install(
      { ...OFFER, version: '3.2.1', sha256: sha256(next), bytes: next.length },
      served(next),
      new AbortController().signal,
    );
    expect(await readFile(exe)).toEqual(next);
    await new SelfUpdater({ exe, version: '3.2.1', logger, platform: 'linux-x64' }).confirm();
    expect(await readdir(dir)).toEqual(['rota-agent']);
  });

  it('rolls back the Windows way too: the running executable renamed away, never overwritten', async () => {
    await updater({ windows: true }).install(OFFER, served(NEW), new AbortController().signal);
    await writeMarker(exe, { from: '3.1.0', to: '3.2.0', started_at: '', starts: 3 });
    expect(await updater({ windows: true }).onStart()).toBe('rolled-back');
    expect(await readFile(exe)).toEqual(OLD);
    expect(await readFile(`${exe}.failed`)).toEqual(NEW);
    expect(await readMarker(exe)).toBeNull();
  });

  it('a marker without a previous executable is dropped, the agent stays as it is', async () => {
    await writeMarker(exe, { from: '3.1.0', to: '3.2.0', started_at: '', starts: 3 });
    expect(await updater().onStart()).toBe('run');
    expect(await readFile(exe)).toEqual(OLD);
    expect(await readMarker(exe)).toBeNull();
  });

  it('names the platforms the server builds for', () => {
    expect(ownPlatform('linux', 'x64')).toBe('linux-x64');
    expect(ownPlatform('win32', 'x64')).toBe('win-x64');
    expect(ownPlatform('darwin', 'arm64')).toBeNull();
  });
});
