import { z } from 'zod';
import { msg } from './messages.js';

/**
 * Labels say what a machine can do (`excel`, `chrome`, `sap`) and what a run needs: a run is
 * claimed only by an agent carrying every label of the run; a run with none goes anywhere.
 */
export const LABEL_MAX_LENGTH = 40;
export const LABELS_MAX = 20;
/** Lowercase letters, digits, ".", "_" and "-": no comma, so a list joins and splits safely. */
export const LABEL_PATTERN = /^[a-z0-9._-]{1,40}$/;

/** Sorted, each once: how every list of labels is stored and answered. */
export const normalizeLabels = (labels: readonly string[]): string[] => [...new Set(labels)].sort();

/** One label: trimmed and lowercased first (`Excel ` is `excel`), then checked. */
export const labelSchema = z
  .string({ error: msg('invalid_label') })
  .trim()
  .toLowerCase()
  .regex(LABEL_PATTERN, msg('invalid_label'));

/** A list of labels as a request gives it: at most 20, duplicates removed, sorted. */
export const labelsSchema = z
  .array(labelSchema, { error: msg('invalid_value') })
  .max(LABELS_MAX, msg('too_many_labels'))
  .transform(normalizeLabels);

/** A list of labels in an answer. */
export const labelListSchema = z.array(z.string());

/** Node's `os.platform()` (the first word of the hello's `os`) → the automatic OS label. */
const OS_LABELS: Record<string, string> = { linux: 'linux', win32: 'windows', darwin: 'macos' };

/**
 * The labels an agent carries without anyone setting them: its OS (`linux`, `windows`,
 * `macos`) and architecture (`x64`, `arm64`), from what its hello says. Nothing for what the
 * hello does not say (an older agent) or says in a form no label can take.
 */
export function automaticLabels(os: string | null | undefined, arch: string | null | undefined) {
  const labels: string[] = [];
  const platform = os?.trim().split(/\s+/)[0]?.toLowerCase();
  const osLabel = platform ? OS_LABELS[platform] : undefined;
  if (osLabel) labels.push(osLabel);
  const archLabel = arch?.trim().toLowerCase();
  if (archLabel && LABEL_PATTERN.test(archLabel)) labels.push(archLabel);
  return normalizeLabels(labels);
}

/** Whether an agent carrying `carried` may take a run needing `required`. */
export const carriesAll = (carried: readonly string[], required: readonly string[]) =>
  required.every((label) => carried.includes(label));
