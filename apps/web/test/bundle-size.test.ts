// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * Budget for the JavaScript a browser must fetch before the sign-in page can show. Raised from
 * 250 to 256 KB with the input hardening (248.3 → 250.1 KB: the contract's input checks and its new pt/en
 * messages); see docs/decisions.md for where the next kilobytes can come back from.
 */
const LIMIT_BYTES = 256 * 1024;
const SIGN_IN_MODULE = 'src/features/auth/routes/sign-in-page.tsx';
const SHELL_MODULE = 'src/features/shell/routes/shell-layout.tsx';

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestPath = `${distDir}.vite/manifest.json`;

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[] };
type Manifest = Record<string, ManifestChunk>;

function readManifest(): Manifest {
  if (!existsSync(manifestPath)) {
    throw new Error(
      `No build output at ${manifestPath}. Run \`npm run build -w @rota/web\` first ` +
        '(the root `npm test` builds before testing).',
    );
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** A chunk and, recursively, the chunks it imports statically (what the browser must load). */
function collect(manifest: Manifest, key: string, into: Set<string>): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest; was it renamed?`);
  into.add(key);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, into);
  return into;
}

function gzippedSize(file: string): number {
  return gzipSync(readFileSync(`${distDir}${file}`), { level: 9 }).length;
}

describe('bundle size', () => {
  it('keeps the initial JavaScript of the sign-in page under 256 KB gzipped', () => {
    const manifest = readManifest();
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    expect(entries).toEqual(['index.html']);

    const keys = collect(manifest, 'index.html', new Set());
    collect(manifest, SIGN_IN_MODULE, keys);
    const files = [...keys].map((key) => manifest[key]!.file).filter((f) => f.endsWith('.js'));
    const total = files.reduce((sum, file) => sum + gzippedSize(file), 0);

    // Route splitting is what keeps this small: the shell must not ride along.
    expect(keys.has(SHELL_MODULE)).toBe(false);
    expect(
      total,
      `sign-in initial JS is ${(total / 1024).toFixed(1)} KB gzipped over ${files.length} files`,
    ).toBeLessThan(LIMIT_BYTES);
  });

  it('preloads the sign-in page with the entry, so its chunks do not wait for the router', () => {
    const manifest = readManifest();
    const html = readFileSync(`${distDir}index.html`, 'utf8');
    const page = manifest[SIGN_IN_MODULE]!;
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="/${page.file}">`);
    for (const imported of page.imports ?? [])
      expect(html).toContain(`/${manifest[imported]!.file}`);
    // The shell is for signed-in users only.
    expect(html).not.toContain(manifest[SHELL_MODULE]!.file);
  });

  it('lists each signed-in page’s own chunks by path, for the server to preload', () => {
    const manifest = readManifest();
    const preloads = JSON.parse(readFileSync(`${distDir}page-preloads.json`, 'utf8')) as Record<
      string,
      string[]
    >;
    const shell = readFileSync(`${distDir}shell.html`, 'utf8');
    const pages = {
      '/dashboard': 'src/features/dashboard/routes/dashboard-page.tsx',
      '/robot': 'src/features/robots/routes/robots-page.tsx',
      '/robot/:id': 'src/features/robots/routes/robot-detail-page.tsx',
    };
    for (const [route, module] of Object.entries(pages)) {
      const files = preloads[route] ?? [];
      expect(files[0], route).toBe(manifest[module]!.file);
      // Everything its page imports that shell.html does not preload already.
      for (const imported of manifest[module]!.imports ?? []) {
        const file = manifest[imported]!.file;
        if (!manifest[imported]!.isEntry && !shell.includes(file))
          expect(files, route).toContain(file);
      }
      for (const file of files) {
        expect(existsSync(`${distDir}${file}`), file).toBe(true);
        expect(shell, file).not.toContain(file);
      }
    }
  });

  it('keeps zod’s parser and the popups container out of the sign-in page’s first download', () => {
    const manifest = readManifest();
    const keys = collect(manifest, 'index.html', new Set());
    collect(manifest, SIGN_IN_MODULE, keys);
    // Both load on demand (the form's first focus or submit, the first popup); a
    // chunk grouping that follows too many imports puts them back in a chunk loaded up front.
    for (const key of keys) {
      const file = manifest[key]!.file;
      if (!file.endsWith('.js')) continue;
      const code = readFileSync(`${distDir}${file}`, 'utf8');
      expect(code.includes('ZodError'), `zod's parser in ${file}`).toBe(false);
      expect(
        code.includes('@mantine/notifications/NotificationContainer'),
        `the popups container in ${file}`,
      ).toBe(false);
    }
  });

  it('keeps the zod chunk out of what the dashboard and the robots list load before they paint', () => {
    // Their forms (the robot drawer) load when first opened (components/lazy-dialog.tsx) and their
    // sort columns come from a zod-free module of the contract: zod and the schemas cost a phone
    // ≈100 ms of evaluation before the paint. vite.config.ts groups zod, the form
    // resolver and the form schema helper as the `zod` chunk.
    const manifest = readManifest();
    expect(Object.keys(manifest).some((key) => key.startsWith('_zod-'))).toBe(true);
    for (const page of [
      'src/features/dashboard/routes/dashboard-page.tsx',
      'src/features/robots/routes/robots-page.tsx',
    ]) {
      const keys = collect(manifest, 'index.html', new Set());
      collect(manifest, SHELL_MODULE, keys);
      collect(manifest, page, keys);
      expect(
        [...keys].filter((key) => key.startsWith('_zod-')),
        page,
      ).toEqual([]);
    }
  });

  it('fetches at most 16 scripts before the dashboard or the robots list can paint', () => {
    // A phone on HTTP/1.1 fetches six files at a time, a round trip each; the shell's
    // and the list pages' small modules are grouped (vite.config.ts) so that a page is a few.
    const shell = readFileSync(`${distDir}shell.html`, 'utf8');
    const preloads = JSON.parse(readFileSync(`${distDir}page-preloads.json`, 'utf8')) as Record<
      string,
      string[]
    >;
    const fromHtml = [...shell.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    for (const route of ['/dashboard', '/robot']) {
      const files = new Set([...fromHtml, ...(preloads[route] ?? [])]);
      expect(files.size, route).toBeLessThanOrEqual(16);
    }
  });

  it('leaves a brotli and a gzip copy next to every text file of 1 KiB or more', () => {
    const missing = readdirSync(`${distDir}assets`)
      .map((name) => `assets/${name}`)
      .concat('index.html')
      .filter((file) => /\.(js|css|html|svg)$/.test(file))
      .filter((file) => statSync(`${distDir}${file}`).size >= 1024)
      .filter((file) => !existsSync(`${distDir}${file}.br`) || !existsSync(`${distDir}${file}.gz`));
    expect(missing).toEqual([]);
  });
});
