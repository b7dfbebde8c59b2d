import type { Execution } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';

/** How long a run took, or has been running (ticking), humanised. */
export function useExecutionDuration() {
  const format = useFormat();
  const now = useNow(10_000);
  return (execution: Pick<Execution, 'duration_ms' | 'start_date' | 'end_date'>) => {
    if (execution.duration_ms !== null) return format.duration(execution.duration_ms);
    if (execution.start_date && !execution.end_date) {
      return format.duration(Math.max(0, now - new Date(execution.start_date).getTime()));
    }
    return '';
  };
}
