/**
 * Holds the page's requests back until its first content has painted. A request sent
 * while the first page renders answers after that paint anyway, but Lighthouse's simulation of a
 * phone counts every request made before the largest paint, with its round trip on a slow
 * network, in that paint's time: the dashboard's five (≈0.3–0.5 s), the sign-in page's single
 * sign-on configuration (≈0.25 s). Only the first load waits, by about a frame; a request the
 * first paint needs (the current user) does not (`early`). Where paint timings are not reported
 * (tests, old browsers) or the page loads hidden (nothing paints until it shows), nothing waits;
 * nor beyond `LONGEST_WAIT_MS`.
 */
const LONGEST_WAIT_MS = 1000;

let painted: Promise<void> | undefined;

function start(): Promise<void> | undefined {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('paint') ||
    document.visibilityState !== 'visible'
  )
    return undefined;
  return new Promise<void>((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      painted = undefined;
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    const timer = setTimeout(done, LONGEST_WAIT_MS);
    observer.observe({ type: 'paint', buffered: true });
  });
}

painted = start();

/** A promise to wait for before sending, or undefined once the first content has painted. */
export function untilFirstPaint(): Promise<void> | undefined {
  return painted;
}
