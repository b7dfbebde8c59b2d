/**
 * Writes the served OpenAPI document and the typed client's types generated from it
 * (test/generated/). Builds the app in-process on an empty in-memory database: the document
 * depends on the routes only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPglite, openPglite } from '../src/db/pglite.js';
import { buildApp } from '../src/http/app.js';
import { SecretBox } from '../src/lib/secret-box.js';
import {
  API_DOCUMENT_FILE,
  API_TYPES_FILE,
  renderApiDocument,
  renderApiTypes,
} from '../test/helpers/api-types.js';

const database = await openPglite(await createPglite());
await database.migrate();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-openapi-'));
const app = await buildApp({
  config: {
    publicUrl: 'http://localhost:8080',
    SMTP_URL: undefined,
    MAIL_FROM: 'Rota <rota@localhost>',
    TRUST_PROXY: false,
  },
  db: database.db,
  webRoot: null,
  secretBox: new SecretBox(randomBytes(32)),
  dataDir,
  events: database.events,
  engine: { loop: false },
  blobSweep: false,
});
try {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  if (response.statusCode !== 200) throw new Error(`/api/docs/json: ${response.statusCode}`);
  const document = response.json() as object;
  await writeFile(API_DOCUMENT_FILE, renderApiDocument(document));
  await writeFile(API_TYPES_FILE, await renderApiTypes(document));
  console.log(`wrote ${path.relative(process.cwd(), API_DOCUMENT_FILE)}`);
  console.log(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
} finally {
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
