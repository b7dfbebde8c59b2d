import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPglite, openPglite } from '../src/db/pglite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite data dir (tar.gz); each test file starts its database from it. */
    pgliteTemplate: string;
  }
}

/** Migrating a new PGlite costs seconds; loading a dump of a migrated one, a fraction. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-test-'));
  const file = path.join(dir, 'template.tar.gz');
  const pglite = await createPglite();
  const database = await openPglite(pglite);
  await database.migrate();
  const dump = await pglite.dumpDataDir('gzip');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
