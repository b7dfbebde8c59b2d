import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@rota/contract';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The console's static files: the build leaves `.br` and `.gz` copies next to each
 * text file; the server picks one by Accept-Encoding, says it varies on it, and lets browsers keep
 * hashed assets for a year while revalidating index.html every time.
 */
const INDEX = `<!doctype html><html><head><title>Rota - Control Room</title>${'<meta name="padding" content="enough to be worth compressing">'.repeat(20)}</head><body><div id="root"></div></body></html>`;
const SCRIPT = 'export const answer = "the sign-in page";\n'.repeat(200);
const STYLE = 'body{margin:0}';
// The build's index.html preloading the shell instead of the sign-in page (apps/web/vite.config.ts).
const SHELL_INDEX = INDEX.replace('<div id="root">', '<link rel="modulepreload"><div id="root">');

let t: TestApp;
let webRoot: string;

async function writeWithCopies(file: string, content: string) {
  await writeFile(file, content);
  await writeFile(`${file}.br`, brotliCompressSync(content));
  await writeFile(`${file}.gz`, gzipSync(content));
}

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'rota-web-static-'));
  await mkdir(path.join(webRoot, 'assets'));
  await writeWithCopies(path.join(webRoot, 'index.html'), INDEX);
  await writeWithCopies(path.join(webRoot, 'shell.html'), SHELL_INDEX);
  await writeWithCopies(path.join(webRoot, 'assets', 'index-Da6EgosD.js'), SCRIPT);
  // Too small to be worth a compressed copy: the build leaves it alone.
  await writeFile(path.join(webRoot, 'assets', 'tiny-B4imGv_e.css'), STYLE);
  await writeFile(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(
    path.join(webRoot, 'page-preloads.json'),
    JSON.stringify({
      '/robot': ['assets/robots-page-A1.js', 'assets/data-table-B2.js'],
      '/robot/:id': ['assets/robot-detail-page-C3.js'],
      '/robot/field': ['assets/robot-fields-page-D4.js'],
    }),
  );
  t = await createTestApp({ webRoot });
});
afterAll(async () => {
  await t.close();
  await rm(webRoot, { recursive: true, force: true });
});

function get(url: string, acceptEncoding?: string, cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
      ...(cookie === undefined ? {} : { cookie }),
    },
  });
}

function varies(headers: Record<string, unknown>) {
  return String(headers['vary'] ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
}

describe('precompressed console files', () => {
  it('sends the brotli copy of a hashed asset to a browser that takes it, cached for a year', async () => {
    const res = await get('/assets/index-Da6EgosD.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(varies(res.headers)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
  });

  it('sends the gzip copy when the browser takes gzip but not brotli', async () => {
    const res = await get('/assets/index-Da6EgosD.js', 'gzip, deflate');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(varies(res.headers)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself, still varying on Accept-Encoding, to a client that takes neither', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await get('/assets/index-Da6EgosD.js', acceptEncoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(varies(res.headers)).toContain('accept-encoding');
      expect(res.body).toBe(SCRIPT);
    }
  });

  it('sends the file itself when the build left no compressed copy', async () => {
    const res = await get('/assets/tiny-B4imGv_e.css', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/text\/css/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(STYLE);
  });

  it('compresses index.html too, but has the browser revalidate it every time', async () => {
    for (const url of ['/', '/index.html', '/sign-in']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
  });

  it('answers a console route (SPA fallback) with index.html, never cached without revalidation', async () => {
    const res = await get('/dashboard', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(varies(res.headers)).toContain('accept-encoding');
    expect(gunzipSync(res.rawPayload).toString()).toBe(INDEX);
  });

  it('revalidates the unhashed files of public/', async () => {
    const res = await get('/favicon.svg', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset without a 500 and without a year-long cache', async () => {
    const res = await get('/assets/missing-AAAAAAAA.js', 'br');
    // The SPA fallback answers unknown paths with index.html; what matters is no 500.
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a browser holding a session with the page that preloads the shell', async () => {
    for (const url of ['/', '/dashboard', '/robot/3/versions']) {
      const res = await get(url, 'br', `theme=dark; ${SESSION_COOKIE}=abc123`);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(varies(res.headers), url).toEqual(
        expect.arrayContaining(['accept-encoding', 'cookie']),
      );
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(SHELL_INDEX);
    }
    // An emptied cookie (signed out) or another cookie of a similar name is no session.
    for (const cookie of [`${SESSION_COOKIE}=`, `x${SESSION_COOKIE}=abc`]) {
      const res = await get('/dashboard', 'br', cookie);
      expect(brotliDecompressSync(res.rawPayload).toString(), cookie).toBe(INDEX);
    }
  });

  it('preloads a signed-in page’s own chunks on its path, in the encoding the browser takes', async () => {
    const session = `${SESSION_COOKIE}=abc123`;
    const preloaded = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/(assets\/[^"]+)">/g)].map(
        (m) => m[1],
      );
    const cases = [
      ['/robot', ['assets/robots-page-A1.js', 'assets/data-table-B2.js']],
      ['/robot/', ['assets/robots-page-A1.js', 'assets/data-table-B2.js']],
      ['/robot/42?tab=versions', ['assets/robot-detail-page-C3.js']],
      // A static segment wins over `:id`.
      ['/robot/field', ['assets/robot-fields-page-D4.js']],
    ] as const;
    for (const [url, files] of cases) {
      const res = await get(url, 'gzip, deflate, br', session);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(varies(res.headers), url).toEqual(
        expect.arrayContaining(['accept-encoding', 'cookie']),
      );
      const html = brotliDecompressSync(res.rawPayload).toString();
      // The shell's page, with the page's chunks added before </head>.
      expect(html.startsWith(SHELL_INDEX.slice(0, SHELL_INDEX.indexOf('</head>'))), url).toBe(true);
      expect(preloaded(html), url).toEqual(files);
    }
    const gzip = await get('/robot', 'gzip, br;q=0', session);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(preloaded(gunzipSync(gzip.rawPayload).toString())).toHaveLength(2);
    const plain = await get('/robot', undefined, session);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(preloaded(plain.body)).toHaveLength(2);
    // Other paths, and a visitor without a session, get the pages the build wrote.
    expect(
      brotliDecompressSync((await get('/robot/1/2', 'br', session)).rawPayload).toString(),
    ).toBe(SHELL_INDEX);
    expect(brotliDecompressSync((await get('/robot', 'br')).rawPayload).toString()).toBe(INDEX);
  });
});
