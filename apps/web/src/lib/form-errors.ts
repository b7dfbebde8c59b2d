import type { FieldError, FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from './http/api-error';
import { localizeMessage } from './i18n';

/**
 * Puts a 400's field errors under the form's fields. Returns false when the error was not
 * about any field the form has, so the caller shows it another way.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
): boolean {
  if (!isApiError(error) || error.status !== 400) return false;
  let applied = false;
  for (const entry of error.errors) {
    const field = fields.find((name) => name === entry.field);
    if (field) {
      setError(field, { type: 'server', message: entry.message });
      applied = true;
    }
  }
  return applied;
}

/**
 * A field's error in the current language. Schema issues hold contract message keys and are
 * translated at render, so switching language re-translates errors already on screen.
 */
export function fieldError(error: FieldError | undefined): string | undefined {
  return error?.message ? localizeMessage(error.message) : undefined;
}
