/** The two archive formats a robot package may come in. */
export type ArchiveKind = 'zip' | 'tar.gz';

/** What a package may hold; the callers pass the limits they configure. */
export interface ArchiveLimits {
  /** Entries of any kind (files, folders, links, …). */
  maxEntries: number;
  /** Sum of the files' sizes once unpacked. */
  maxUnpackedBytes: number;
  /** Unpacked bytes per compressed byte, per zip entry and over a whole tar.gz. */
  maxRatio: number;
}

/**
 * Why a package is refused. Stable: the server maps each to a user-facing message and the
 * agent logs it, so a new reason is a new code rather than a new meaning for an old one.
 */
export type ArchiveProblemCode =
  | 'corrupt'
  | 'empty'
  | 'unsafe_path'
  | 'too_large'
  | 'link'
  | 'special_file'
  | 'ratio'
  | 'too_many_entries'
  | 'encrypted'
  | 'compression';

export interface ArchiveProblem {
  ok: false;
  code: ArchiveProblemCode;
  /** English, for logs: what was wrong and with which entry. */
  message: string;
  /** The entry refused, when one entry is the reason. */
  entry?: string;
}

export type CheckResult = { ok: true; files: number; bytes: number } | ArchiveProblem;

/** Thrown inside the walks to stop at the first refusal; never leaves this package. */
export class Refusal extends Error {
  constructor(
    readonly code: ArchiveProblemCode,
    message: string,
    readonly entry?: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }

  toProblem(): ArchiveProblem {
    const problem: ArchiveProblem = { ok: false, code: this.code, message: this.message };
    if (this.entry !== undefined) problem.entry = this.entry;
    return problem;
  }
}

export const tooManyEntries = (limits: ArchiveLimits) =>
  new Refusal('too_many_entries', `it holds more than ${limits.maxEntries} entries`);

export const tooLarge = (limits: ArchiveLimits) =>
  new Refusal('too_large', `it unpacks to more than ${limits.maxUnpackedBytes} bytes`);

export const corrupt = (message: string, entry?: string) =>
  new Refusal('corrupt', `it is corrupt: ${message}`, entry);
