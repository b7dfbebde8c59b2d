import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT, usage } from './errors.js';

export interface Target {
  url: string;
  apiKey: string;
}

interface ProfileFile {
  default?: string;
  profiles?: Record<string, { url?: string; api_key?: string }>;
}

/** Where profiles live: $ROTA_CONFIG, else the XDG config folder. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.ROTA_CONFIG) return env.ROTA_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'rota', 'config.json');
}

/**
 * The server and key to use. A named profile wins (the user asked for it); otherwise the
 * environment, so a CI job needs no file; otherwise the file's default profile.
 */
export async function resolveTarget(
  env: NodeJS.ProcessEnv,
  profileName: string | undefined,
  warn: (line: string) => void,
): Promise<Target> {
  const name = profileName ?? env.ROTA_PROFILE;
  if (!name && env.ROTA_URL && env.ROTA_API_KEY) {
    return { url: env.ROTA_URL, apiKey: env.ROTA_API_KEY };
  }
  const file = configPath(env);
  const parsed = await readProfiles(file, Boolean(name));
  if (!parsed) {
    throw new CliError(
      'No server configured: set ROTA_URL and ROTA_API_KEY, or write a profile in ' + file,
      EXIT.usage,
    );
  }
  const chosen = name ?? parsed.default ?? 'default';
  const profile = parsed.profiles?.[chosen];
  if (!profile) throw usage(`No profile "${chosen}" in ${file}`);
  if (!profile.url || !profile.api_key) {
    throw usage(`Profile "${chosen}" in ${file} needs "url" and "api_key"`);
  }
  await warnIfReadable(file, warn);
  return { url: env.ROTA_URL ?? profile.url, apiKey: env.ROTA_API_KEY ?? profile.api_key };
}

async function readProfiles(file: string, required: boolean): Promise<ProfileFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return null;
    throw usage(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('not an object');
    }
    return parsed as ProfileFile;
  } catch (error) {
    throw usage(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** An API key is a password: say so when others on the machine could read it. */
async function warnIfReadable(file: string, warn: (line: string) => void) {
  if (process.platform === 'win32') return;
  const { mode } = await stat(file);
  if (mode & 0o077) warn(`warning: ${file} is readable by others; run chmod 600 ${file}`);
}
