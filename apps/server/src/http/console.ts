import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SESSION_COOKIE, translateMessage } from '@rota/contract';
import { AppError } from '../lib/errors.js';

/**
 * The build's copy of index.html that preloads the shell's chunks instead of the sign-in page's
 * (apps/web/vite.config.ts): a browser holding a session cookie is on its way to a signed-in page.
 * Both pages run the same entry and route by path, so either is correct for any path; only what
 * is fetched early differs (issue 16).
 */
const SIGNED_IN_HTML = 'shell.html';
const SESSION_COOKIE_PATTERN = new RegExp(
  `(?:^|;\\s*)${SESSION_COOKIE.replace(/\./g, '\\.')}=[^;]`,
);

/**
 * Serves the built console and answers every non-API path with its index.html (SPA
 * fallback); unknown /api paths get a JSON 404 instead. The build writes a brotli (`.br`) and a
 * gzip (`.gz`) copy next to each text file (apps/web/vite.config.ts); `preCompressed` sends the
 * best one the browser accepts, with `Vary: Accept-Encoding`, and the file itself otherwise, so
 * nothing is compressed per request.
 */
export async function registerConsole(app: FastifyInstance, webRoot: string | null) {
  const index = webRoot ? path.join(webRoot, 'index.html') : null;
  const built = index !== null && existsSync(index);
  const signedInHtml = webRoot !== null && existsSync(path.join(webRoot, SIGNED_IN_HTML));
  if (built && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      preCompressed: true,
      // `/` goes through the fallback below, which picks the page for the visitor.
      index: false,
      setHeaders(reply, filePath) {
        // Vite fingerprints everything it writes under assets/ (`name-<hash>.js`, and its
        // .br/.gz copies), so a changed file gets a new name; index.html, which names them, and
        // the unhashed files of public/ must always be revalidated.
        void reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  /** index.html, or shell.html for a browser holding a session cookie: same app, other preloads. */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const signedIn = signedInHtml && SESSION_COOKIE_PATTERN.test(request.headers.cookie ?? '');
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .sendFile(signedIn ? SIGNED_IN_HTML : 'index.html');
  };

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) throw new AppError('route_not_found');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new AppError('route_not_found');
    if (!built) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(
          translateMessage(request.lang, 'not_found') +
            ': the console is not built. Run `npm run build`.',
        );
    }
    return sendPage(request, reply);
  });
  // With `index: false` the static plugin refuses the root (a directory) instead of falling through.
  if (built) app.get('/', { schema: { hide: true } }, sendPage);
}
