import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server: the folder of this package's package.json, found by walking up from wherever
 * this module was loaded — dist/lib/ when compiled, dist/ when bundled into one file, src/lib/
 * under tsx — so the paths beside the server (its migrations, the console's build, the
 * packaged agent) do not depend on how deep the running file sits.
 */
function findServerRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === '@rota/server') return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no @rota/server package above ${from}`);
  }
}

export const SERVER_ROOT = findServerRoot(path.dirname(fileURLToPath(import.meta.url)));
