import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';

type CodeFieldProps = Omit<TextInputProps, 'type'> & {
  /** A recovery code (`xxxxx-xxxxx`) instead of the app's six digits. */
  recovery?: boolean;
};

/**
 * Where a code is typed: six digits with the phone's number pad and the browser's one-time-code
 * autofill, or a recovery code as plain text.
 */
export const CodeField = forwardRef<HTMLInputElement, CodeFieldProps>(function CodeField(
  { recovery = false, ...props },
  ref,
) {
  return (
    <TextInput
      ref={ref}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={recovery ? 32 : 8}
      styles={MONOSPACE_INPUT}
      {...props}
    />
  );
});
