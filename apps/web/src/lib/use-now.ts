import { useEffect, useState } from 'react';

/**
 * The current time in milliseconds, read again every `intervalMs`, so relative times ("há 5
 * minutos") and running durations move on while the page stays open.
 */
export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
