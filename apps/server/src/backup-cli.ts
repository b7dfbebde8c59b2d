import { createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from './config/env.js';
import { decodeSecretKey, resolveSecretKey, SECRET_KEY_FILE } from './config/secret-key.js';
import { writeBackupFile } from './db/backup/create-backup.js';
import { shortFingerprint } from './db/backup/manifest.js';
import { RestoreError, restoreBackup } from './db/backup/restore-backup.js';
import { runningServer } from './db/backup/server-lock.js';
import { MIGRATIONS_DIR } from './db/client.js';
import { keyFingerprint } from './lib/secret-box.js';

const USAGE = `Usage:
  npm run backup -- --out FILE
      The server running on DATA_DIR makes it (the command finds it in DATA_DIR/server.json);
      with no server running, the command reads DATA_DIR itself. Another machine's server:
      ROTA_URL and ROTA_TOKEN (a platform administrator's session token).
  npm run restore -- --in FILE [--key-file FILE] [--force-other-key]
      Into DATA_DIR, which must be absent or empty. The secret key is ROTA_SECRET_KEY or
      --key-file (the old DATA_DIR's ${SECRET_KEY_FILE}, copied into the new folder).
      --force-other-key restores with another key: the backup's secrets then stay unreadable.
`;

/** A refusal the operator can act on: printed without a stack. */
class CliError extends Error {}

async function backupCommand(args: string[], env = process.env): Promise<string> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (!values.out) throw new CliError(`--out FILE is required.\n\n${USAGE}`);
  const out = path.resolve(values.out);
  if (await stat(out).catch(() => null)) throw new CliError(`${out} exists: choose a new file.`);
  if (env.ROTA_URL) {
    if (!env.ROTA_TOKEN) {
      throw new CliError(
        'ROTA_TOKEN is required with ROTA_URL: a platform administrator’s session token.',
      );
    }
    return backupThroughServer(env.ROTA_URL, env.ROTA_TOKEN, out);
  }

  const config = loadConfig(env);
  if (config.DATABASE_URL) {
    throw new CliError(
      'DATABASE_URL is set: this Rota keeps its data in PostgreSQL. Back it up with pg_dump -Fc (docs/operations.md).',
    );
  }
  const dataDir = path.resolve(config.DATA_DIR);
  // PGlite is one process's database: while a server holds the folder, it makes the backup.
  const server = await runningServer(dataDir);
  if (server) return backupThroughServer(server.url, server.backup_token, out);
  if (!(await stat(path.join(dataDir, 'pglite')).catch(() => null))) {
    throw new CliError(`${dataDir} holds no embedded database.`);
  }
  const key = await resolveSecretKey(config.ROTA_SECRET_KEY, dataDir);
  const { createPglite } = await import('./db/pglite.js');
  const pglite = await createPglite({ dataDir: path.join(dataDir, 'pglite') });
  try {
    const manifest = await writeBackupFile(
      {
        pglite,
        dataDir,
        keyFingerprint: keyFingerprint(key),
        migrationsFolder: MIGRATIONS_DIR,
      },
      out,
    );
    return `Backup written to ${out} (schema ${manifest.schema.migrations}, key fingerprint ${shortFingerprint(manifest.secret_key_fingerprint)}).`;
  } finally {
    await pglite.close();
  }
}

async function backupThroughServer(url: string, token: string, out: string) {
  const endpoint = new URL('/api/rota/backup/api/v1/create', url);
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new CliError(
      `The server refused the backup (${response.status}): ${body?.message ?? response.statusText}`,
    );
  }
  const part = `${out}.${randomUUID()}.part`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as never),
      createWriteStream(part, { flags: 'wx', mode: 0o600 }),
    );
    await rename(part, out);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
  const fingerprint = response.headers.get('x-rota-key-fingerprint') ?? '';
  return `Backup written to ${out} by the server at ${url} (key fingerprint ${shortFingerprint(fingerprint)}).`;
}

async function restoreCommand(args: string[], env = process.env): Promise<string> {
  const { values } = parseArgs({
    args,
    options: {
      in: { type: 'string' },
      'key-file': { type: 'string' },
      'force-other-key': { type: 'boolean', default: false },
    },
  });
  if (!values.in) throw new CliError(`--in FILE is required.\n\n${USAGE}`);
  const config = loadConfig(env);
  if (config.DATABASE_URL) {
    throw new CliError(
      'DATABASE_URL is set: restore a PostgreSQL backup with pg_restore (docs/operations.md).',
    );
  }
  const keyFile = values['key-file'];
  const secretKey = keyFile
    ? decodeSecretKey(await readFile(keyFile, 'utf8'))
    : config.ROTA_SECRET_KEY
      ? decodeSecretKey(config.ROTA_SECRET_KEY)
      : null;
  const target = path.resolve(config.DATA_DIR);
  const manifest = await restoreBackup({
    archive: path.resolve(values.in),
    target,
    secretKey,
    writeKeyFile: Boolean(keyFile),
    forceOtherKey: values['force-other-key'],
    migrationsFolder: MIGRATIONS_DIR,
  });
  return `Restored the backup of ${manifest.created_at} (Rota ${manifest.rota_version}, schema ${manifest.schema.migrations}) into ${target}. Start the server with DATA_DIR=${target}.`;
}

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (command === 'backup') return backupCommand(args);
  if (command === 'restore') return restoreCommand(args);
  throw new CliError(USAGE);
}

main(process.argv.slice(2)).then(
  (line) => {
    process.stdout.write(`${line}\n`);
  },
  (error: unknown) => {
    const known =
      error instanceof CliError ||
      error instanceof RestoreError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(
      `${known ? (error as Error).message : `Rota: ${(error as Error).stack ?? String(error)}`}\n`,
    );
    process.exit(1);
  },
);
