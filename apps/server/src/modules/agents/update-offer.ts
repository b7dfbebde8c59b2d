import semver from 'semver';
import type { AgentPlatform } from '@rota/contract';

/** What the offer of an update reads of an agent: its last hello. */
export interface UpdateFacts {
  version: string | null;
  os: string | null;
  facts: Record<string, unknown> | null;
}

/**
 * An update is available to a packaged agent (only an executable can replace itself; a source
 * checkout is updated with git) whose version is older than the shipped one, within the same
 * major: a new major may change the protocol, and an agent is never moved across it unasked.
 */
export function updateAvailable(agent: UpdateFacts, shipped: string | null): boolean {
  if (!shipped || agent.facts?.packaged !== true) return false;
  const from = semver.valid(agent.version);
  const to = semver.valid(shipped);
  if (!from || !to) return false;
  return semver.major(from) === semver.major(to) && semver.lt(from, to);
}

/** The packaged platform of an agent, by its hello's `os` ("linux 6.1.0") and architecture. */
export function platformOf(agent: UpdateFacts): AgentPlatform | null {
  const system = agent.os?.split(' ')[0];
  if (agent.facts?.arch !== 'x64') return null;
  if (system === 'linux') return 'linux-x64';
  if (system === 'win32') return 'win-x64';
  return null;
}
