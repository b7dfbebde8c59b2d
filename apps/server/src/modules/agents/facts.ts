import { AGENT_LOW_DISK_BYTES, AGENT_MODES, type AgentFacts, type AgentMode } from '@rota/contract';

/** What the agents API reads of a row to answer its facts. */
export interface FactsColumns {
  os: string | null;
  hostname: string | null;
  version: string | null;
  /** The hello's other facts as it sent them (validated then); null before any such hello. */
  facts: Record<string, unknown> | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
const modeOf = (value: unknown): AgentMode | null =>
  AGENT_MODES.includes(value as AgentMode) ? (value as AgentMode) : null;

/**
 * The agent's facts for the API: null until it says hello to a server that keeps them. The
 * stored object was checked by the hello's schema; it is read field by field all the same, so a
 * row written by another version never makes an answer fail its schema.
 */
export function factsOf(row: FactsColumns): AgentFacts | null {
  if (row.facts === null) return null;
  const f = row.facts;
  return {
    os: row.os,
    os_version: text(f.os_version),
    arch: text(f.arch),
    hostname: row.hostname,
    cpus: count(f.cpus),
    memory_bytes: count(f.memory_bytes),
    free_disk_bytes: count(f.free_disk_bytes),
    agent_version: row.version,
    mode: modeOf(f.mode),
  };
}

/** Under 1 GiB free in its work dir, by its last hello; unknown is not low. */
export const isLowDisk = (facts: AgentFacts | null) =>
  facts?.free_disk_bytes != null && facts.free_disk_bytes < AGENT_LOW_DISK_BYTES;
