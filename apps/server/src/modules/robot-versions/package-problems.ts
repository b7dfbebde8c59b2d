import { checkPackage, type ArchiveLimits, type ArchiveProblemCode } from '@rota/archive-check';
import {
  ROBOT_PACKAGE_MAX_ENTRIES,
  ROBOT_PACKAGE_MAX_RATIO,
  ROBOT_PACKAGE_MAX_UNPACKED_BYTES,
  type RobotPackageFormat,
} from '@rota/contract';

/**
 * What an uploaded package can be refused for, as contract message keys of the `file` field.
 * They are the agent's refusals, told at upload: a version the agent would refuse at every run
 * must never be accepted, so both run the same check (@rota/archive-check) with these limits.
 */
export type PackageProblem =
  | 'package_corrupt'
  | 'package_empty'
  | 'package_unsafe_path'
  | 'package_unpacked_too_large'
  | 'package_link'
  | 'package_special_file'
  | 'package_ratio'
  | 'package_too_many_entries'
  | 'package_encrypted'
  | 'package_compression';

/**
 * The contract's limits, the agent's too. A 100 MB gzip of zeros inflates to ~100 GB: without a
 * cap, checking (and later unpacking on an agent) one upload could take minutes or fill a disk.
 */
export const PACKAGE_LIMITS: ArchiveLimits = {
  maxEntries: ROBOT_PACKAGE_MAX_ENTRIES,
  maxUnpackedBytes: ROBOT_PACKAGE_MAX_UNPACKED_BYTES,
  maxRatio: ROBOT_PACKAGE_MAX_RATIO,
};

const PROBLEMS: Record<ArchiveProblemCode, PackageProblem> = {
  corrupt: 'package_corrupt',
  empty: 'package_empty',
  unsafe_path: 'package_unsafe_path',
  too_large: 'package_unpacked_too_large',
  link: 'package_link',
  special_file: 'package_special_file',
  ratio: 'package_ratio',
  too_many_entries: 'package_too_many_entries',
  encrypted: 'package_encrypted',
  compression: 'package_compression',
};

/** Why the agent would refuse to unpack the package in `file`, or null when it would not. */
export async function packageProblem(
  file: string,
  format: RobotPackageFormat,
): Promise<PackageProblem | null> {
  const result = await checkPackage(file, format, PACKAGE_LIMITS);
  return result.ok ? null : PROBLEMS[result.code];
}
