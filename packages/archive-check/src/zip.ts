import { pipeline, Transform, Writable, type Readable } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { unsafeEntryNameReason } from './names.js';
import { corrupt, Refusal, tooLarge, tooManyEntries, type ArchiveLimits } from './problems.js';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MADE_BY_UNIX = 3;
const STORED = 0;
const DEFLATED = 8;

/** A zip file entry that passed the checks, its data still to flow. */
export interface ZipFileEntry {
  name: string;
  /** The Unix mode (file type and permission bits) when a Unix zip wrote one, else 0. */
  unixMode: number;
  /**
   * The entry's data, inflated, counted and CRC-checked as it flows: it errors (and stops
   * inflating) as soon as it passes its declared size or the package's limit. Consume it.
   */
  data: Readable;
}

/** Where checked zip entries go while they are checked; without one they are read and dropped. */
export interface ZipSink {
  directory(name: string): Promise<void>;
  file(entry: ZipFileEntry): Promise<void>;
}

/**
 * yauzl's own complaints (no `code`) and zlib's (`Z_…`) are about the archive; anything else,
 * a disk error of the sink say, is not and goes up unchanged.
 */
function archiveError(error: unknown, entry?: string): unknown {
  if (error instanceof Refusal) return error;
  if (!(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined || code.startsWith('Z_')) return corrupt(error.message, entry);
  return error;
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

interface Tally {
  files: number;
  declared: number;
  inflated: number;
}

/**
 * Counts what yauzl inflates. yauzl already fails a stream that passes the entry's declared
 * size (validateEntrySizes), so a header that lies stops the inflating within one chunk; the
 * count here also holds the package's limit and the CRC-32, which yauzl leaves to its caller.
 */
function counter(entry: yauzl.Entry, name: string, tally: Tally, limits: ArchiveLimits) {
  let seen = 0;
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      tally.inflated += chunk.length;
      if (seen > entry.uncompressedSize) {
        done(corrupt(`entry "${name}" inflates past its declared size`, name));
      } else if (tally.inflated > limits.maxUnpackedBytes) {
        done(tooLarge(limits));
      } else {
        crc = crc32(chunk, crc);
        done(null, chunk);
      }
    },
    flush(done) {
      if (seen !== entry.uncompressedSize) {
        done(corrupt(`entry "${name}" is shorter than declared`, name));
      } else if (crc >>> 0 !== entry.crc32 >>> 0) {
        done(corrupt(`entry "${name}" fails its CRC-32 check`, name));
      } else {
        done();
      }
    },
  });
}

/** Refuses a file entry on what its header says, before any of it is inflated. */
function refuseByHeader(entry: yauzl.Entry, name: string, tally: Tally, limits: ArchiveLimits) {
  if (entry.isEncrypted()) {
    throw new Refusal('encrypted', `entry "${name}" is encrypted`, name);
  }
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) {
    throw new Refusal(
      'compression',
      `entry "${name}" uses compression method ${entry.compressionMethod}, not deflate`,
      name,
    );
  }
  if (entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
    throw new Refusal(
      'ratio',
      `entry "${name}" claims a compression over ${limits.maxRatio}:1`,
      name,
    );
  }
  tally.declared += entry.uncompressedSize;
  if (tally.declared > limits.maxUnpackedBytes) throw tooLarge(limits);
}

async function readEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  name: string,
  unixMode: number,
  tally: Tally,
  limits: ArchiveLimits,
  sink: ZipSink | undefined,
) {
  let source: Readable;
  try {
    source = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw archiveError(error, name);
  }
  const data = counter(entry, name, tally, limits);
  // Which side failed first: yauzl's stream (the archive) or the reader of `data` (the sink),
  // since either failure is passed on to the other side.
  let first: 'source' | 'data' | undefined;
  let sourceError: unknown;
  source.once('error', (error) => {
    first ??= 'source';
    sourceError = error;
  });
  data.once('error', () => {
    first ??= 'data';
  });
  // The callback form: a failure reaches whoever reads `data`, as `data`'s own error.
  pipeline(source, data, () => {});
  try {
    if (sink) await sink.file({ name, unixMode, data });
    else await pipelinePromise(data, discard());
  } catch (error) {
    // A sink that gave up without reading must not leave yauzl's stream open.
    data.destroy();
    if (error instanceof Refusal) throw error;
    if (first === 'source' && error === sourceError) throw archiveError(error, name);
    throw error;
  }
}

/** Walks a zip entry by entry, throwing the first Refusal; returns the files and bytes seen. */
export async function walkZip(
  file: string,
  limits: ArchiveLimits,
  sink?: ZipSink,
): Promise<{ files: number; bytes: number }> {
  let zip: yauzl.ZipFile;
  try {
    // Names are decoded below, so that an unsafe one is told as such rather than as yauzl's
    // generic error; yauzl refuses a stored entry whose two sizes differ and a stream that
    // inflates to another size than declared.
    zip = await yauzl.openPromise(file, {
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (error) {
    throw archiveError(error);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw tooManyEntries(limits);
    const tally: Tally = { files: 0, declared: 0, inflated: 0 };
    const entries = zip.eachEntry();
    for (;;) {
      let next: IteratorResult<yauzl.Entry>;
      try {
        next = await entries.next();
      } catch (error) {
        throw archiveError(error);
      }
      if (next.done) break;
      const entry = next.value;
      const name = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        false,
      );
      const unsafe = unsafeEntryNameReason(name);
      if (unsafe) throw new Refusal('unsafe_path', unsafe, name);
      const unixMode =
        entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalFileAttributes >>> 16 : 0;
      const fileType = unixMode & S_IFMT;
      if (fileType === S_IFLNK) {
        throw new Refusal(
          'link',
          `entry "${name}" is a symbolic link, only files and directories are allowed`,
          name,
        );
      }
      if (fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) {
        throw new Refusal(
          'special_file',
          `entry "${name}" is a special file, only files and directories are allowed`,
          name,
        );
      }
      if (name.endsWith('/') || fileType === S_IFDIR) {
        // Folders are only created, never read.
        await sink?.directory(name);
        continue;
      }
      refuseByHeader(entry, name, tally, limits);
      tally.files += 1;
      await readEntry(zip, entry, name, unixMode, tally, limits, sink);
    }
    if (tally.files === 0) throw new Refusal('empty', 'it holds no files');
    return { files: tally.files, bytes: tally.inflated };
  } finally {
    zip.close();
  }
}
