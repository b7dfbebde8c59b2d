import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AGENT_MODES, type AgentHello, type AgentMode } from '@rota/contract';
import { agentVersion } from './version.js';

/**
 * How this agent was started, when its options did not say: the service definitions may set
 * ROTA_AGENT_MODE; by hand it is a console.
 */
export function modeFromEnv(env: NodeJS.ProcessEnv = process.env): AgentMode {
  const value = env.ROTA_AGENT_MODE?.trim();
  return AGENT_MODES.includes(value as AgentMode) ? (value as AgentMode) : 'console';
}

/** Linux's own name for the distribution ("Debian GNU/Linux 12 (bookworm)"), if it says one. */
async function linuxDistribution(): Promise<string | undefined> {
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    const line = text.split('\n').find((l) => l.startsWith('PRETTY_NAME='));
    const value = line
      ?.slice('PRETTY_NAME='.length)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    return value || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Free space for this user on the disk of `dir`, or of its nearest existing parent (the work dir
 * may not be made yet at the first hello); undefined when none can be read.
 */
export async function freeDiskBytes(dir: string): Promise<number | undefined> {
  let at = path.resolve(dir);
  for (;;) {
    try {
      const fs = await statfs(at);
      return Math.min(Number.MAX_SAFE_INTEGER, fs.bavail * fs.bsize);
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return undefined;
      at = parent;
    }
  }
}

/** `max` characters at most, as the hello's schema takes them. */
const cut = (text: string, max: number) => text.trim().slice(0, max);

/**
 * What this agent says of itself and its machine in each hello. Asked again every time: free
 * disk changes between two, and an upgrade of the system changes its version.
 */
export async function collectFacts(workDir: string, mode: AgentMode): Promise<AgentHello> {
  const platform = os.platform();
  const osVersion = (platform === 'linux' ? await linuxDistribution() : undefined) ?? os.version();
  const free = await freeDiskBytes(workDir);
  return {
    hostname: cut(os.hostname(), 255),
    version: agentVersion(),
    os: cut(`${platform} ${os.release()}`, 120),
    ...(osVersion ? { os_version: cut(osVersion, 255) } : {}),
    arch: os.arch(),
    cpus: os.availableParallelism(),
    memory_bytes: os.totalmem(),
    ...(free === undefined ? {} : { free_disk_bytes: free }),
    mode,
  };
}
