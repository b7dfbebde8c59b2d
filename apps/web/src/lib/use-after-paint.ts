import { useEffect, useState } from 'react';

/**
 * False until the component's first render has reached the screen, then true: for a request the
 * first paint does not need, so that it does not delay it (issue 16: Lighthouse counts every
 * request made before the largest paint, and the work its answer causes, in that paint's time).
 * A frame is asked for and the flag set in a task after it, once the frame is painted.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
