import { Refusal, type ArchiveKind, type ArchiveLimits, type CheckResult } from './problems.js';
import { walkTarGz, type TarSink } from './tar-gz.js';
import { walkZip, type ZipSink } from './zip.js';

export type {
  ArchiveKind,
  ArchiveLimits,
  ArchiveProblem,
  ArchiveProblemCode,
  CheckResult,
} from './problems.js';
export type { TarParserOptions, TarSink } from './tar-gz.js';
export type { ZipFileEntry, ZipSink } from './zip.js';
export { unsafeEntryNameReason, unsafeLinkTargetReason } from './names.js';

/** Where checked entries go while a package is unpacked; see ZipSink and TarSink. */
export interface PackageSink {
  zip?: ZipSink;
  tar?: TarSink;
}

/**
 * Checks a robot package the way it is unpacked: every entry's name, type and size, the entry
 * count, and, for a zip, each file's data inflated (streamed, counted, never held whole) so a
 * header that lies about a size is caught. The first refusal is returned; an error that is not
 * about the archive (the file cannot be read, a sink's disk is full) is thrown.
 *
 * With a sink, the checked entries are handed to it as they pass, so an unpack is the same walk
 * as the check and cannot let through what the check refuses.
 */
export async function checkPackage(
  file: string,
  kind: ArchiveKind,
  limits: ArchiveLimits,
  sink: PackageSink = {},
): Promise<CheckResult> {
  try {
    const seen =
      kind === 'zip'
        ? await walkZip(file, limits, sink.zip)
        : await walkTarGz(file, limits, sink.tar);
    return { ok: true, ...seen };
  } catch (error) {
    if (error instanceof Refusal) return error.toProblem();
    throw error;
  }
}
export {
  ed25519PublicKey,
  keyFingerprint,
  signPackage,
  signatureBytes,
  verifyPackage,
} from './signature.js';
