/**
 * What each measured page of the built console needs before its first paint: the
 * entry, the route chunks it loads (the shell for signed-in pages) and, recursively, what they
 * import statically, read from Vite's manifest. Prints JavaScript and CSS bytes, raw and
 * brotli-compressed (the server sends the build's `.br` copies), and the file count, as a Markdown
 * table for docs/performance.md. Dynamic imports (dialogs, drawers, widgets loaded on first use)
 * are not counted: they are fetched after the page shows.
 *
 *   npm run build -w @rota/web && node --import tsx bench/bundle-size.ts [dist directory]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

const distDir = path.resolve(
  process.argv[2] ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url)),
);
const manifestPath = path.join(distDir, '.vite/manifest.json');
if (!existsSync(manifestPath))
  throw new Error(`No manifest at ${manifestPath}: run \`npm run build -w @rota/web\` first.`);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;

const SHELL = 'src/features/shell/routes/shell-layout.tsx';
const PAGES = [
  { name: 'sign-in', modules: ['src/features/auth/routes/sign-in-page.tsx'] },
  { name: 'dashboard', modules: [SHELL, 'src/features/dashboard/routes/dashboard-page.tsx'] },
  { name: 'robots', modules: [SHELL, 'src/features/robots/routes/robots-page.tsx'] },
];

function collect(key: string, into: Set<string>): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest; was it renamed?`);
  into.add(key);
  for (const imported of chunk.imports ?? []) collect(imported, into);
  return into;
}

const brotliSizes = new Map<string, number>();
function sizes(file: string) {
  const content = readFileSync(path.join(distDir, file));
  let br = brotliSizes.get(file);
  if (br === undefined) {
    br = brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }).length;
    brotliSizes.set(file, br);
  }
  return { raw: content.length, br };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(0);

console.log(`Built console in ${distDir}\n`);
console.log(
  '| page | JS files | JS raw (KiB) | JS brotli (KiB) | CSS files | CSS raw (KiB) | CSS brotli (KiB) |',
);
console.log(
  '| ---- | -------- | ------------ | --------------- | --------- | ------------- | ---------------- |',
);
for (const page of PAGES) {
  const keys = new Set<string>();
  collect('index.html', keys);
  for (const module of page.modules) collect(module, keys);
  const js = [...keys].map((key) => manifest[key]!.file);
  const css = [...new Set([...keys].flatMap((key) => manifest[key]!.css ?? []))];
  const total = (files: string[]) =>
    files.map(sizes).reduce((sum, s) => ({ raw: sum.raw + s.raw, br: sum.br + s.br }), {
      raw: 0,
      br: 0,
    });
  const jsSize = total(js);
  const cssSize = total(css);
  console.log(
    `| ${page.name} | ${js.length} | ${kib(jsSize.raw)} | ${kib(jsSize.br)} | ${css.length} | ` +
      `${kib(cssSize.raw)} | ${kib(cssSize.br)} |`,
  );
}
