import { liveEventSchema, type LiveEvent } from '@rota/contract';

/**
 * The live stream's events checked against the contract. Loaded when the stream opens, not with
 * the shell: the schema brings zod and the execution and agent schemas, which the shell's first
 * paint does not need.
 */
export function parseLiveEvent(candidate: unknown): LiveEvent | null {
  const parsed = liveEventSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}
