import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseOptions } from '../src/options.js';
import { tempDir } from './helpers/archives.js';

const SERVER = ['--server', 'http://127.0.0.1:1'];
let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function parsed(argv: string[], env: NodeJS.ProcessEnv = {}) {
  return parseOptions([...SERVER, ...argv], env);
}

describe('the token from a file', () => {
  it('reads --token-file, trimmed of its newline', async () => {
    const file = path.join(dir, 'token');
    await writeFile(file, 'file-token\n');
    expect(parsed(['--token-file', file])).toMatchObject({
      kind: 'ok',
      options: { token: 'file-token' },
    });
  });

  it('falls back to ROTA_AGENT_TOKEN_FILE, then to systemd credential named token', async () => {
    const file = path.join(dir, 'env-token');
    await writeFile(file, 'env-file-token');
    expect(parsed([], { ROTA_AGENT_TOKEN_FILE: file })).toMatchObject({
      options: { token: 'env-file-token' },
    });
    const credentials = path.join(dir, 'credentials');
    await mkdir(credentials);
    await writeFile(path.join(credentials, 'token'), 'credential-token\n');
    expect(parsed([], { CREDENTIALS_DIRECTORY: credentials })).toMatchObject({
      options: { token: 'credential-token' },
    });
    // The flag wins over everything the environment offers.
    const flagFile = path.join(dir, 'flag-token');
    await writeFile(flagFile, 'flag-file-token');
    expect(
      parsed(['--token-file', flagFile], {
        ROTA_AGENT_TOKEN: 'env-token',
        CREDENTIALS_DIRECTORY: credentials,
      }),
    ).toMatchObject({ options: { token: 'flag-file-token' } });
  });

  it('says which file is missing or empty, never what a file holds', async () => {
    const missing = path.join(dir, 'nope');
    expect(parsed(['--token-file', missing])).toEqual({
      kind: 'invalid',
      problems: [`--token-file ${missing} cannot be read (ENOENT)`],
    });
    const empty = path.join(dir, 'empty');
    await writeFile(empty, ' \n');
    expect(parsed(['--token-file', empty])).toEqual({
      kind: 'invalid',
      problems: [`--token-file ${empty} is empty`],
    });
    const file = path.join(dir, 'token');
    await writeFile(file, 'secret-token');
    const both = parsed(['--token-file', file, '--token', 'other', '--concurrency', 'x']);
    expect(JSON.stringify(both)).not.toContain('secret-token');
    expect(both).toMatchObject({
      kind: 'invalid',
      problems: expect.arrayContaining(['give --token-file or --token, not both']),
    });
  });

  it('says "required" when a credentials directory holds no token', async () => {
    expect(parsed([], { CREDENTIALS_DIRECTORY: dir })).toEqual({
      kind: 'invalid',
      problems: ['--token-file or --token (or ROTA_AGENT_TOKEN) is required'],
    });
  });

  it('takes --mode (or ROTA_AGENT_MODE) and answers --version', () => {
    expect(parsed(['--token', 't', '--mode', 'service'])).toMatchObject({
      options: { mode: 'service' },
    });
    expect(parsed(['--token', 't', '--mode', 'daemon'])).toEqual({
      kind: 'invalid',
      problems: ['--mode (or ROTA_AGENT_MODE) must be one of service, desktop, console'],
    });
    expect(parsed(['--token', 't'], { ROTA_AGENT_MODE: 'desktop' })).toMatchObject({
      options: { mode: 'desktop' },
    });
    expect(
      parsed(['--token', 't', '--mode', 'service'], { ROTA_AGENT_MODE: 'desktop' }),
    ).toMatchObject({
      options: { mode: 'service' },
    });
    expect(parseOptions(['--version'], {})).toEqual({ kind: 'version' });
  });
});
