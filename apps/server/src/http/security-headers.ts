import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/** The part of helmet's options Rota uses (helmet 8, reached through @fastify/helmet). */
interface HelmetOptions {
  contentSecurityPolicy?: { directives: Record<string, string[] | null> } | false;
  strictTransportSecurity?: false;
}
type HelmetMiddleware = (
  req: unknown,
  res: { setHeader(name: string, value: string): void; removeHeader(name: string): void },
  next: (error?: unknown) => void,
) => void;

// @fastify/helmet calls `helmet(options)` on every request: it parses the options and renders
// the CSP again each time (~5 % of the server's CPU on a cheap API call). Nothing in
// Rota's options depends on the request (no nonces), so helmet itself renders them once here.
const requireHelmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'));
const helmet = requireHelmet('helmet') as (options: HelmetOptions) => HelmetMiddleware;

/** The headers helmet sets with these options, in its order, rendered by helmet itself. */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  let failed: unknown;
  helmet(options)(
    {},
    {
      setHeader: (name, value) => void headers.push([name.toLowerCase(), String(value)]),
      removeHeader: () => undefined,
    },
    (error) => (failed = error),
  );
  if (failed) throw failed;
  return headers;
}

/**
 * Sets the precomputed security headers on every answer, 404s and hijacked streams included:
 * straight on the raw response, where helmet put them, so what a route sets itself (a stricter
 * CSP on an artifact, Swagger UI's own) still wins as it did.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
