import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.js';
import { resolveSecretKey } from '../src/config/secret-key.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      ROTA_ADMIN_ACCESS: 'admin',
      ROTA_ADMIN_EMAIL: 'admin@localhost',
      publicUrl: 'http://127.0.0.1:3000',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ROTA_ADMIN_PASSWORD).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('treats empty variables as unset and trims PUBLIC_URL', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      PUBLIC_URL: 'https://rota.example.com/',
    });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('https://rota.example.com');
  });

  it('lists every bad variable in one message, without echoing secrets', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        ROTA_SECRET_KEY: 'too-short',
        ROTA_ADMIN_ACCESS: 'No Spaces',
        ROTA_ADMIN_EMAIL: 'not-mail',
        ROTA_ADMIN_PASSWORD: 'short',
        SMTP_URL: 'http://mail',
        PUBLIC_URL: 'ftp://x',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems.sort()).toEqual(
      [
        'DATABASE_URL',
        'PORT',
        'PUBLIC_URL',
        'ROTA_ADMIN_ACCESS',
        'ROTA_ADMIN_EMAIL',
        'ROTA_ADMIN_PASSWORD',
        'ROTA_SECRET_KEY',
        'SMTP_URL',
      ].sort(),
    );
    expect((error as Error).message).not.toContain('too-short');
    expect((error as Error).message).toContain('(got "***")');
  });

  it('accepts a secret key in hex or base64, and makes a key file once when none is given', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-key-'));
    try {
      const hex = 'ab'.repeat(32);
      expect((await resolveSecretKey(hex, dir)).toString('hex')).toBe(hex);
      const b64 = Buffer.alloc(32, 7).toString('base64');
      expect(await resolveSecretKey(b64, dir)).toEqual(Buffer.alloc(32, 7));
      const made = await resolveSecretKey(undefined, path.join(dir, 'nested'));
      expect(made).toHaveLength(32);
      const file = path.join(dir, 'nested', 'secret.key');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await resolveSecretKey(undefined, path.join(dir, 'nested'))).toEqual(made);
      expect((await readFile(file, 'utf8')).trim()).toBe(made.toString('hex'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
