import { forwardRef, useId } from 'react';
import { Stack, Switch, Text, type SwitchProps } from '@mantine/core';

type SwitchFieldProps = Omit<SwitchProps, 'description'> & {
  /** Shown under the switch and linked by aria-describedby. */
  hint?: string;
};

/**
 * A Switch whose hint stays out of its accessible name (Mantine puts `description` inside the
 * label, so "Ativo" would read as "Ativo Os agendamentos…").
 */
export const SwitchField = forwardRef<HTMLInputElement, SwitchFieldProps>(function SwitchField(
  { hint, ...props },
  ref,
) {
  const hintId = useId();
  return (
    <Stack gap={4}>
      <Switch ref={ref} aria-describedby={hint ? hintId : undefined} {...props} />
      {hint ? (
        <Text id={hintId} size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
});
