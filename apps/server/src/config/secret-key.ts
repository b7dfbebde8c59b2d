import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export const SECRET_KEY_FILE = 'secret.key';

export function decodeSecretKey(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  return key;
}

/**
 * The key that encrypts secrets at rest: ROTA_SECRET_KEY when set, otherwise a key file made
 * once in DATA_DIR (mode 0600). Losing that file makes stored secrets unreadable, so it is
 * never overwritten.
 */
export async function resolveSecretKey(
  fromEnv: string | undefined,
  dataDir: string,
): Promise<Buffer> {
  if (fromEnv) return decodeSecretKey(fromEnv);
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return decodeSecretKey(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    await writeFile(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another instance wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return decodeSecretKey(await readFile(file, 'utf8'));
    throw error;
  }
}
