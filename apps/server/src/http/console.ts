import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SESSION_COOKIE, translateMessage } from '@rota/contract';
import { AppError } from '../lib/errors.js';

/**
 * The build's copy of index.html that preloads the shell's chunks instead of the sign-in page's
 * (apps/web/vite.config.ts): a browser holding a session cookie is on its way to a signed-in page.
 * Both pages run the same entry and route by path, so either is correct for any path; only what
 * is fetched early differs.
 */
const SIGNED_IN_HTML = 'shell.html';
/**
 * Each signed-in page's own chunks by route path (`/robot`, `/robot/:id`), written by the build
 * (apps/web/vite.config.ts): the page sent for that path preloads them too, so they download
 * beside the entry instead of after it has run the router and the shell.
 */
const PAGE_PRELOADS = 'page-preloads.json';
const SESSION_COOKIE_PATTERN = new RegExp(
  `(?:^|;\\s*)${SESSION_COOKIE.replace(/\./g, '\\.')}=[^;]`,
);

/** `shell.html` with one page's chunks preloaded, in each encoding the server may send. */
interface PageVariant {
  segments: string[];
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The shell page for every route of `page-preloads.json`, built once at boot; routes with fewer
 * `:params` first, so `/robot/field` wins over `/robot/:id`. None when the build wrote no such
 * file (an older build): `shell.html` alone is still correct.
 */
function pageVariants(webRoot: string): PageVariant[] {
  const file = path.join(webRoot, PAGE_PRELOADS);
  if (!existsSync(file)) return [];
  const shell = readFileSync(path.join(webRoot, SIGNED_IN_HTML), 'utf8');
  const preloads = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  const params = (route: string) => route.split('/').filter((s) => s.startsWith(':')).length;
  return Object.entries(preloads)
    .sort(([a], [b]) => params(a) - params(b))
    .map(([route, files]) => {
      const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
      const html = Buffer.from(shell.replace('</head>', `  ${links.join('\n    ')}\n  </head>`));
      return {
        segments: route.split('/').filter(Boolean),
        html,
        br: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(html, { level: 9 }),
      };
    });
}

function variantFor(variants: PageVariant[], pathname: string): PageVariant | undefined {
  const segments = pathname.split('/').filter(Boolean);
  return variants.find(
    (v) =>
      v.segments.length === segments.length &&
      v.segments.every((s, i) => s.startsWith(':') || s === segments[i]),
  );
}

/** The encodings a request accepts (q=0 refuses one). */
function acceptsEncoding(request: FastifyRequest, encoding: 'br' | 'gzip'): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((part) => {
      const [name, ...options] = part.trim().split(';');
      const refused = options.some((o) => /^\s*q=0(?:\.0*)?\s*$/.test(o));
      return name?.trim().toLowerCase() === encoding && !refused;
    });
}

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
  const variants = signedInHtml && webRoot ? pageVariants(webRoot) : [];
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
    void reply.header('cache-control', 'no-cache').header('vary', 'Cookie');
    const variant = signedIn ? variantFor(variants, request.url.split('?')[0] ?? '') : undefined;
    if (!variant) return reply.sendFile(signedIn ? SIGNED_IN_HTML : 'index.html');
    void reply.header('vary', 'Cookie, Accept-Encoding').type('text/html; charset=utf-8');
    if (acceptsEncoding(request, 'br'))
      return reply.header('content-encoding', 'br').send(variant.br);
    if (acceptsEncoding(request, 'gzip'))
      return reply.header('content-encoding', 'gzip').send(variant.gzip);
    return reply.send(variant.html);
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
