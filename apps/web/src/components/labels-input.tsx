import { Badge, Group, TagsInput } from '@mantine/core';
import type { FieldError } from 'react-hook-form';
import { LABELS_MAX } from '@rota/contract';
import { fieldError } from '../lib/form-errors';

/**
 * A list's error: the list's own (too many) or its first item's (`labels.2`), in the current
 * language.
 */
export function labelsError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = error as FieldError & { root?: FieldError };
  if (own.message) return fieldError(own);
  if (own.root?.message) return fieldError(own.root);
  if (Array.isArray(error)) return fieldError((error as (FieldError | undefined)[]).find(Boolean));
  return undefined;
}

type LabelsInputProps = {
  label: string;
  description?: string;
  placeholder?: string;
  value: string[] | undefined;
  onChange: (labels: string[]) => void;
  onBlur?: () => void;
  name?: string;
  /** The form's error for the field (the list's or an item's). */
  error?: unknown;
};

/**
 * Labels as tags (`excel`, `sap`): typed and split on commas, spaces or Enter. The form checks
 * them with the contract's schema (lowercase, digits, ".", "_", "-"; at most 20), so the error
 * reads as the server's would.
 */
export function LabelsInput({
  label,
  description,
  placeholder,
  value,
  onChange,
  onBlur,
  name,
  error,
}: LabelsInputProps) {
  return (
    <TagsInput
      label={label}
      description={description}
      placeholder={placeholder}
      splitChars={[',', ' ', ';']}
      maxTags={LABELS_MAX + 1}
      clearable
      value={value ?? []}
      onChange={onChange}
      onBlur={onBlur}
      name={name}
      error={labelsError(error)}
    />
  );
}

/** Labels as badges; `muted` ones (an agent's automatic OS and architecture) in a lighter style. */
export function LabelBadges({
  labels,
  muted = [],
}: {
  labels: readonly string[];
  muted?: readonly string[];
}) {
  if (labels.length === 0) return null;
  return (
    <Group gap={4} data-testid="labels">
      {labels.map((label) => {
        const automatic = muted.includes(label);
        return (
          <Badge
            key={label}
            size="sm"
            radius="sm"
            tt="none"
            variant={automatic ? 'outline' : 'light'}
            color={automatic ? 'gray' : 'blue'}
            data-automatic={automatic || undefined}
          >
            {label}
          </Badge>
        );
      })}
    </Group>
  );
}
