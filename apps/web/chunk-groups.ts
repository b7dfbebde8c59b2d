import path from 'node:path';
import type { ChunkingContext } from 'rolldown';

/**
 * Which modules a module needs, as the bundler will keep them after tree-shaking, for chunk
 * grouping (vite.config.ts). Static imports only. Following every import overshoots:
 * a feature's `index.ts`, `@mantine/core` or `@tabler/icons-react` re-export hundreds of modules
 * of which an importer uses a few, so an import through such a re-exporting module follows
 * only the names imported. Anything the parser does not understand is followed whole, so the
 * answer can be too large (a chunk a little bigger) but never too small for what it is used
 * for below: keeping a page's modules out of a chunk that page would otherwise download.
 */
type Aliases = Record<string, string>;

export class ModuleNeeds {
  readonly #ctx: ChunkingContext;
  readonly #reexports = new Map<string, Map<string, string[]> | null>();
  /** Re-exporting modules reached through names: needed for their own body only. */
  #bodies = new Set<string>();

  readonly #aliases: Aliases;

  /** `aliases`: bare specifiers the bundler resolves to a file of the workspace, by that file. */
  constructor(ctx: ChunkingContext, aliases: Aliases = {}) {
    this.#ctx = ctx;
    this.#aliases = aliases;
  }

  /** Every module `from` needs, itself included. */
  closure(from: string): Set<string> {
    this.#bodies = new Set();
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...this.#direct(id));
    }
    // A re-exporting module imported by name runs its own body too (a feature's `index.ts` may
    // define lazy components): it belongs with its importer, without everything it re-exports.
    return new Set([...seen, ...this.#bodies]);
  }

  /** What one module needs directly: its imports, narrowed through re-exporting modules. */
  #direct(id: string): string[] {
    const info = this.#ctx.getModuleInfo(id);
    if (!info) return [];
    const imported = [...info.importedIds];
    const code = info.code;
    if (!code) return imported;
    const out: string[] = [];
    // Specifier → names imported from it (undefined: the whole module).
    const bySpecifier = new Map<string, Set<string> | undefined>();
    const IMPORT =
      /\b(?:import|export)\s*(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\*|[\w$]+\s*(?:,\s*\{[^}]*\})?)?\s*from\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]/g;
    for (const match of code.matchAll(IMPORT)) {
      if (match[1]) continue;
      const specifier = match[3] ?? match[4]!;
      const clause = match[2];
      const names =
        clause?.includes('{') && !clause.includes('*') && !/^[\w$]+\s*,/.test(clause)
          ? namesOf(clause)
          : undefined;
      if (!bySpecifier.has(specifier) || names === undefined) {
        bySpecifier.set(specifier, names === undefined ? undefined : new Set(names));
      } else {
        const known = bySpecifier.get(specifier);
        if (known) for (const name of names) known.add(name);
      }
    }
    for (const target of imported) {
      const reexports = this.#reexportsOf(target);
      const names = reexports
        ? namesImportedFrom(bySpecifier, id, target, this.#aliases)
        : undefined;
      if (!reexports || !names) {
        out.push(target);
        continue;
      }
      // The re-exporting module itself (its own body) and only the modules behind the names.
      this.#bodies.add(target);
      out.push(...this.#ownImports(target, reexports));
      for (const name of names) {
        const behind = reexports.get(name);
        if (behind) out.push(...behind);
        else {
          // A name defined in the module itself or not understood: follow everything.
          out.push(...this.#ctx.getModuleInfo(target)!.importedIds);
          break;
        }
      }
    }
    return out;
  }

  /** Imports of a re-exporting module that no name maps to (its own dependencies). */
  #ownImports(id: string, reexports: Map<string, string[]>): string[] {
    const mapped = new Set([...reexports.values()].flat());
    return (this.#ctx.getModuleInfo(id)?.importedIds ?? []).filter((dep) => !mapped.has(dep));
  }

  /**
   * For a module made mostly of re-exports, exported name → the modules behind it; null for an
   * ordinary module.
   */
  #reexportsOf(id: string): Map<string, string[]> | null {
    if (this.#reexports.has(id)) return this.#reexports.get(id)!;
    const info = this.#ctx.getModuleInfo(id);
    let result: Map<string, string[]> | null = null;
    if (info?.code && info.importedIds.length >= 2) {
      const local = new Map<string, string>(); // local name → module id
      const exported = new Map<string, string[]>();
      const STATEMENT = /\b(import|export)\s*(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
      for (const match of info.code.matchAll(STATEMENT)) {
        if (match[2]) continue;
        const target = resolveIn(info.importedIds, id, match[4]!, this.#aliases);
        if (!target) continue;
        for (const part of match[3]!.split(',')) {
          const [from, as] = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/);
          if (!from) continue;
          if (match[1] === 'import') local.set(as ?? from, target);
          else exported.set(as ?? from, [target]);
        }
      }
      for (const match of info.code.matchAll(
        /\bimport\s*\*\s*as\s+([\w$]+)\s*from\s*['"]([^'"]+)['"]/g,
      )) {
        const target = resolveIn(info.importedIds, id, match[2]!, this.#aliases);
        if (target) local.set(match[1]!, target);
      }
      for (const match of info.code.matchAll(/\bexport\s*\{([^}]*)\}\s*;?(?!\s*from)/g)) {
        for (const part of match[1]!.split(',')) {
          const [from, as] = part.trim().split(/\s+as\s+/);
          if (!from) continue;
          const target = local.get(from);
          if (target) exported.set(as ?? from, [target]);
        }
      }
      // `export * from`: every name the target exports (the contract's index is made of these).
      for (const match of info.code.matchAll(/\bexport\s*\*\s*from\s*['"]([^'"]+)['"]/g)) {
        const target = resolveIn(info.importedIds, id, match[1]!, this.#aliases);
        const names = target ? this.#ctx.getModuleInfo(target)?.exports : undefined;
        if (!target || !names?.length) {
          this.#reexports.set(id, null);
          return null;
        }
        for (const name of names)
          if (name !== 'default' && !exported.has(name)) exported.set(name, [target]);
      }
      if (exported.size >= 2) result = exported;
    }
    this.#reexports.set(id, result);
    return result;
  }
}

function namesOf(clause: string): string[] {
  return clause
    .replace(/[{}]/g, '')
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part && !part.startsWith('type '))
    .map((part) => part.split(/\s+as\s+/)[0]!.trim());
}

/** The names `importer` takes from `target`, or undefined if unknown (or the whole module). */
function namesImportedFrom(
  bySpecifier: Map<string, Set<string> | undefined>,
  importer: string,
  target: string,
  aliases: Aliases,
): Set<string> | undefined {
  let found: Set<string> | undefined;
  let matched = false;
  for (const [specifier, names] of bySpecifier) {
    if (!specifierMatches(importer, specifier, target, aliases)) continue;
    matched = true;
    if (!names) return undefined;
    found = new Set([...(found ?? []), ...names]);
  }
  return matched ? found : undefined;
}

function resolveIn(
  candidates: string[],
  importer: string,
  specifier: string,
  aliases: Aliases,
): string | undefined {
  return candidates.find((id) => specifierMatches(importer, specifier, id, aliases));
}

/** Whether an import specifier written in `importer` plausibly resolves to `id`. */
function specifierMatches(
  importer: string,
  specifier: string,
  id: string,
  aliases: Aliases,
): boolean {
  const clean = id.split('?')[0]!;
  if (aliases[specifier] !== undefined) return clean === aliases[specifier];
  if (specifier.startsWith('.')) {
    const base = path.resolve(path.dirname(importer), specifier);
    const stem = base.replace(/\.(?:m?js|tsx?)$/, '');
    return (
      clean === base ||
      clean.replace(/\.(?:m?js|tsx?|mjs)$/, '') === stem ||
      clean.replace(/[\\/]index\.(?:m?js|tsx?)$/, '') === stem
    );
  }
  return clean.includes(`/node_modules/${specifier}/`);
}
