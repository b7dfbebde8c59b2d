import { createReadStream, type Stats } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import { unsafeEntryNameReason, unsafeLinkTargetReason } from './names.js';
import { corrupt, Refusal, tooLarge, tooManyEntries, type ArchiveLimits } from './problems.js';

/** What the walk asks of the node-tar parser it feeds: strict, and its filter in front. */
export interface TarParserOptions {
  strict: true;
  filter: (path: string, entry: tar.ReadEntry | Stats) => boolean;
}

/**
 * Makes the node-tar parser the checked entries go to (a `tar.Unpack` to write them); without
 * one, a `tar.Parser` reads and drops them. Only entries the filter let through reach it.
 */
export type TarSink = (options: TarParserOptions) => tar.Parser;

/**
 * Headers, padding and pax records on top of the entries' own bytes: the inflated stream may
 * pass the unpacked limit by this much before it is a bomb rather than a big package. It also
 * bounds the zeros after the end-of-archive blocks, which node-tar skips but gunzip inflates.
 */
const TAR_OVERHEAD_BYTES = 256 * 1024 * 1024;
/** What may be written (node-tar's names); everything else is refused. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

function describeType(type: string): string {
  switch (type) {
    case 'SymbolicLink':
      return 'symbolic link';
    case 'Link':
      return 'hard link';
    case 'CharacterDevice':
    case 'BlockDevice':
      return 'device file';
    case 'FIFO':
      return 'named pipe';
    default:
      return `"${type}" entry`;
  }
}

interface Tally {
  entries: number;
  files: number;
  declared: number;
}

/** Refuses one entry as node-tar's header parsing hands it over, before any of its data. */
function checkEntry(name: string, entry: tar.ReadEntry, tally: Tally, limits: ArchiveLimits) {
  if (++tally.entries > limits.maxEntries) throw tooManyEntries(limits);
  const unsafe = unsafeEntryNameReason(name);
  if (unsafe) throw new Refusal('unsafe_path', unsafe, name);
  const type = entry.type;
  const target = entry.linkpath ?? '';
  // A hard link names another entry of the archive; a symlink points from its own folder.
  let unsafeTarget: string | null = null;
  if (type === 'Link' && unsafeEntryNameReason(target)) {
    unsafeTarget = `hard link "${name}" points outside the package ("${target}")`;
  } else if (type === 'SymbolicLink') {
    unsafeTarget = unsafeLinkTargetReason(name, target);
  }
  if (unsafeTarget) throw new Refusal('unsafe_path', unsafeTarget, name);
  if (!FILE_TYPES.has(type) && type !== 'Directory') {
    // A link could point a later file anywhere, so links are refused like devices.
    const code = type === 'Link' || type === 'SymbolicLink' ? 'link' : 'special_file';
    throw new Refusal(
      code,
      `entry "${name}" is a ${describeType(type)}, only files and directories are allowed`,
      name,
    );
  }
  if (FILE_TYPES.has(type)) {
    tally.files += 1;
    tally.declared += entry.size;
    if (tally.declared > limits.maxUnpackedBytes) throw tooLarge(limits);
  }
}

/** node-tar's own complaints carry a TAR_ code, zlib's a Z_ one; the rest is not the archive's. */
function archiveError(error: unknown): unknown {
  if (error instanceof Refusal) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string' && /^(TAR_|Z_)/.test(code)) {
    return corrupt(error.message);
  }
  return error;
}

/** A Writable in front of a node-tar parser, that finishes once the parser has closed. */
function into(parser: tar.Parser): Writable {
  const closed = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  closed.catch(() => {});
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (parser.write(chunk)) done();
      else parser.once('drain', () => done());
    },
    final(done) {
      parser.end();
      closed.then(() => done(), done);
    },
  });
  parser.on('error', (error: Error) => writable.destroy(error));
  return writable;
}

/**
 * Walks a tar.gz header by header through node-tar (strict: a bad checksum, a cut-off entry or
 * a link target on a file is an error), throwing the first Refusal. The gzip is inflated here
 * rather than by node-tar so that every inflated byte is counted: gunzip stops at the limit.
 */
export async function walkTarGz(
  file: string,
  limits: ArchiveLimits,
  sink?: TarSink,
): Promise<{ files: number; bytes: number }> {
  const tally: Tally = { entries: 0, files: 0, declared: 0 };
  let refusal: Refusal | undefined;
  // Reading alone, nothing is left to do after a refusal; an Unpack may still be writing.
  const stop = new AbortController();
  const filter = (name: string, entry: tar.ReadEntry | Stats) => {
    if (refusal) return false;
    try {
      if (!('type' in entry)) throw corrupt(`entry "${name}" is not a tar entry`);
      checkEntry(name, entry, tally, limits);
      return true;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refusal = error;
      if (!sink) stop.abort();
      return false;
    }
  };
  const options: TarParserOptions = { strict: true, filter };
  const parser = sink
    ? sink(options)
    : new tar.Parser({ ...options, onReadEntry: (entry) => entry.resume() });
  let compressed = 0;
  let inflated = 0;
  const countCompressed = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      compressed += chunk.length;
      done(null, chunk);
    },
  });
  const countInflated = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > limits.maxUnpackedBytes + TAR_OVERHEAD_BYTES) done(tooLarge(limits));
      else if (inflated > limits.maxRatio * compressed) {
        done(new Refusal('ratio', `it inflates over ${limits.maxRatio}:1`));
      } else done(null, chunk);
    },
  });
  try {
    await pipeline(
      createReadStream(file),
      countCompressed,
      createGunzip(),
      countInflated,
      into(parser),
      { signal: stop.signal },
    );
  } catch (error) {
    if (refusal) throw refusal;
    throw archiveError(error);
  }
  if (refusal) throw refusal;
  if (tally.files === 0) throw new Refusal('empty', 'it holds no files');
  return { files: tally.files, bytes: tally.declared };
}
