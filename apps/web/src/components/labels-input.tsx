import { Badge, Group, TagsInput } from '@mantine/core';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { LABELS_MAX } from '@rota/contract';
import { listFieldError } from '../lib/form-errors';

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
      error={listFieldError(error)}
    />
  );
}

/**
 * A form's labels field (an agent's, a robot's required ones, a scheduling's, a run's): the
 * input bound to `name`, showing that field's error.
 */
export function LabelsField<T extends FieldValues, TContext, TOutput>({
  control,
  name,
  ...texts
}: {
  control: Control<T, TContext, TOutput>;
  name: FieldPath<T>;
  label: string;
  description?: string;
  placeholder?: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <LabelsInput
          {...texts}
          value={field.value as string[] | undefined}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          error={fieldState.error}
        />
      )}
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
