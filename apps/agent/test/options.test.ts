import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../src/options.js';

const ok = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseOptions(argv, env);
  if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(parsed)}`);
  return parsed.options;
};
const problems = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseOptions(argv, env);
  if (parsed.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(parsed)}`);
  return parsed.problems;
};

describe('parseOptions', () => {
  it('reads flags, with defaults for the rest', () => {
    expect(ok(['--server', 'https://rota.example.com/', '--token', 'tok'])).toEqual({
      servers: ['https://rota.example.com'],
      token: 'tok',
      workDir: path.join(os.homedir(), '.rota-agent'),
      concurrency: 1,
      graceSeconds: 60,
      mode: 'console',
    });
  });

  it('accepts --name=value and resolves the work dir', () => {
    const options = ok([
      '--server=http://127.0.0.1:8080',
      '--token=a=b',
      '--work-dir=rel/dir',
      '--concurrency=4',
      '--grace-seconds',
      '0',
    ]);
    expect(options).toMatchObject({
      servers: ['http://127.0.0.1:8080'],
      token: 'a=b',
      workDir: path.resolve('rel/dir'),
      concurrency: 4,
      graceSeconds: 0,
    });
  });

  it('falls back to the environment, and flags win over it', () => {
    const env = { ROTA_SERVER: 'http://env:1', ROTA_AGENT_TOKEN: 'env-token', ROTA_WORK_DIR: '/w' };
    expect(ok([], env)).toMatchObject({
      servers: ['http://env:1'],
      token: 'env-token',
      workDir: path.resolve('/w'),
    });
    expect(ok(['--token', 'flag-token'], env).token).toBe('flag-token');
  });

  it('lists every problem at once', () => {
    const list = problems([
      '--concurrency',
      '0',
      '--grace-seconds',
      'soon',
      '--bogus',
      'x',
      'stray',
    ]);
    expect(list).toEqual(
      expect.arrayContaining([
        'unknown option --bogus',
        'unexpected argument "x"',
        'unexpected argument "stray"',
        '--server (or ROTA_SERVER) is required',
        '--token-file or --token (or ROTA_AGENT_TOKEN) is required',
        '--concurrency must be a whole number from 1 to 64',
        '--grace-seconds must be a whole number from 0 to 86400',
      ]),
    );
    expect(list).toHaveLength(7);
  });

  it('refuses a server that is not an http(s) URL and a flag without value', () => {
    expect(problems(['--server', 'ftp://x', '--token'])).toEqual([
      '--token needs a value',
      '--server (or ROTA_SERVER) must be an http(s) URL such as https://rota.example.com',
      '--token-file or --token (or ROTA_AGENT_TOKEN) is required',
    ]);
  });

  it('treats empty environment variables as unset', () => {
    expect(problems([], { ROTA_SERVER: '', ROTA_AGENT_TOKEN: ' ' })).toHaveLength(2);
  });

  it('answers --help', () => {
    expect(parseOptions(['--token', 'x', '--help'], {})).toEqual({ kind: 'help' });
  });
});
