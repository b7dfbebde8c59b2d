import { readFileSync } from 'node:fs';

/**
 * Read at run time rather than imported, because the build's rootDir is `src`; `src/` and `dist/`
 * both sit one level below the package.json.
 */
export function agentVersion(): string {
  try {
    const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const version: unknown = (JSON.parse(raw) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
