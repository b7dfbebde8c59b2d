import { isSea } from 'node:sea';

/**
 * Whether this agent is a packaged executable (Node's single executable application), which
 * can replace itself; the bundle run by `node` and a source checkout cannot.
 */
export function isPackaged(): boolean {
  try {
    return isSea();
  } catch {
    return false;
  }
}
