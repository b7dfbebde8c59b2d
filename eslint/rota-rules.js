// Rota's own lint rules: each table has one owning module, and a module's repositories
// are its own. The file a table is declared in is its ownership:
// apps/server/src/db/schema/<module>.ts holds the tables of modules/<module>, and
// db/schema/lib/<name>.ts those of lib/<name>.ts; these rules read the folder.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/src');
const SCHEMA_DIR = path.join(SERVER_SRC, 'db/schema');
/** Files of the schema folder that declare no table of an owner of their own. */
const SHARED_SCHEMA_FILES = new Set(['index.ts', 'columns.ts']);

function loadOwnership() {
  /** Drizzle export name → owner ('executions' or 'lib/rate-limiter.ts'). */
  const ownerOfTable = new Map();
  /** SQL table name → Drizzle export name. */
  const tableOfSqlName = new Map();
  const files = readdirSync(SCHEMA_DIR, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !SHARED_SCHEMA_FILES.has(file));
  for (const file of files) {
    const owner = file.startsWith('lib/') ? file : file.replace(/\.ts$/, '');
    const text = readFileSync(path.join(SCHEMA_DIR, file), 'utf8');
    for (const match of text.matchAll(/export const (\w+) = pgTable\(\s*'([a-z_]+)'/g)) {
      ownerOfTable.set(match[1], owner);
      tableOfSqlName.set(match[2], match[1]);
    }
  }
  if (tableOfSqlName.size === 0) throw new Error(`${SCHEMA_DIR}: no pgTable found`);
  return { ownerOfTable, tableOfSqlName };
}

let ownership;
const owners = () => (ownership ??= loadOwnership());

/** Where a server source file sits: its owner key and whether it is a repository. */
function placeOf(filename) {
  const rel = path.relative(SERVER_SRC, filename).split(path.sep).join('/');
  if (rel.startsWith('..')) return null;
  const module = /^modules\/([^/]+)\//.exec(rel)?.[1];
  return {
    rel,
    owner: module ?? rel,
    module: module ?? null,
    // Repositories, and what an owner lends other modules: read-only join views (`views.ts`)
    // and statement fragments for one-statement hot paths (`statements.ts`, `*-statements.ts`).
    repository: /(repository|\/views|statements)\.ts$/.test(rel),
  };
}

function resolveImport(filename, source) {
  if (!source.startsWith('.')) return null;
  const target = path.resolve(path.dirname(filename), source).replace(/\.js$/, '.ts');
  return path.relative(SERVER_SRC, target).split(path.sep).join('/');
}

const tableOwner = {
  meta: {
    type: 'problem',
    docs: {
      description: "Only a table's owning module's repositories touch it (db/schema/<owner>.ts)",
    },
    schema: [],
  },
  create(context) {
    const place = placeOf(context.filename);
    if (!place || place.rel.startsWith('db/')) return {};
    const { ownerOfTable, tableOfSqlName } = owners();
    const mayTouch = (table) => {
      const owner = ownerOfTable.get(table);
      if (owner !== place.owner) return `${table} belongs to ${owner}: call its service`;
      if (place.module && !place.repository)
        return `${table} is read and written by ${owner}'s repositories only`;
      return null;
    };
    const sqlPattern = new RegExp(
      `\\b(?:from|join|update|into|using)\\s+"?(${[...tableOfSqlName.keys()].join('|')})\\b"?`,
      'gi',
    );
    return {
      ImportDeclaration(node) {
        const target = resolveImport(context.filename, String(node.source.value));
        if (!target || !target.startsWith('db/schema/')) return;
        for (const spec of node.specifiers) {
          if (spec.type !== 'ImportSpecifier') {
            context.report({ node: spec, message: 'Import tables from db/schema by name' });
            continue;
          }
          const name = spec.imported.name;
          if (!ownerOfTable.has(name)) continue; // a type or helper, not a table
          const problem = mayTouch(name);
          if (problem) context.report({ node: spec, message: problem });
        }
      },
      TemplateLiteral(node) {
        for (const quasi of node.quasis) {
          for (const match of quasi.value.raw.matchAll(sqlPattern)) {
            const problem = mayTouch(tableOfSqlName.get(match[1].toLowerCase()));
            if (problem) context.report({ node: quasi, message: `SQL on ${match[1]}: ${problem}` });
          }
        }
      },
    };
  },
};

const moduleBoundary = {
  meta: {
    type: 'problem',
    docs: { description: "A module's repositories are imported by that module only" },
    schema: [],
  },
  create(context) {
    const place = placeOf(context.filename);
    if (!place) return {};
    const check = (node) => {
      if (!node.source) return;
      const target = resolveImport(context.filename, String(node.source.value));
      const match = target && /^modules\/([^/]+)\/.*repository\.ts$/.exec(target);
      if (match && match[1] !== place.module) {
        context.report({
          node,
          message: `${target} is ${match[1]}'s own: call ${match[1]}'s service instead`,
        });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/** A section of a document kept outside the repository, or an issue number. */
const OUTSIDE_CITATION = /DESIGN §|SPEC §|\b[Ii]ssues? #?\d+/;

// A comment must stand on its own: a reader of the repository has neither the tracker nor the
// documents those citations point to.
const noOutsideCitation = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Comments cite no document outside the repository and no issue number' },
    schema: [],
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const match = OUTSIDE_CITATION.exec(comment.value);
          if (!match) continue;
          context.report({
            loc: comment.loc,
            message: `"${match[0]}": cite nothing outside the repository: say why in the comment, or point to docs/architecture.md`,
          });
        }
      },
    };
  },
};

export default {
  rules: {
    'table-owner': tableOwner,
    'module-boundary': moduleBoundary,
    'no-outside-citation': noOutsideCitation,
  },
};
