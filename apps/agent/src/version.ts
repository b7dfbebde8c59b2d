import { readFileSync } from 'node:fs';

/** Stamped by `npm run package:agent` (esbuild's define); absent when the agent runs from source. */
declare const __ROTA_AGENT_VERSION__: string | undefined;

/**
 * A packaged agent carries its version stamped in; from source it is read at run time rather
 * than imported, because the build's rootDir is `src`; `src/` and `dist/` both sit one level
 * below the package.json.
 */
export function agentVersion(): string {
  if (typeof __ROTA_AGENT_VERSION__ === 'string') return __ROTA_AGENT_VERSION__;
  try {
    const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const version: unknown = (JSON.parse(raw) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
