import type { Execution } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';

type Timed = Pick<Execution, 'duration_ms' | 'start_date' | 'end_date'> &
  Partial<Pick<Execution, 'status' | 'attempt_start_date'>>;

/**
 * How long a run took (its attempts' run time, the server's sum) or how long its current attempt
 * has been running (ticking), humanised. A retry waiting in the queue is not running.
 */
export function useExecutionDuration() {
  const format = useFormat();
  const now = useNow(10_000);
  return (execution: Timed) => {
    if (execution.duration_ms !== null) return format.duration(execution.duration_ms);
    if (execution.status === 'queued') return '';
    const start = execution.attempt_start_date ?? execution.start_date;
    if (start && !execution.end_date) {
      return format.duration(Math.max(0, now - new Date(start).getTime()));
    }
    return '';
  };
}

/** How long a queued run has been waiting since it was queued or its last attempt ended (ticking). */
export function useWaitingTime() {
  const format = useFormat();
  const now = useNow(10_000);
  return (since: string) => format.duration(Math.max(0, now - new Date(since).getTime()));
}
