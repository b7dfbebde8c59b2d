import type { FieldError, FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from './http/api-error';
import { localizeMessage } from './i18n';

/**
 * Puts an answer's field errors under the form's fields: a 400's by default; forms that also
 * want a 409's (a duplicate name names its field) pass `statuses`. Returns false when the error
 * was not about any field the form has, so the caller shows it another way.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
  statuses: readonly number[] = [400],
): boolean {
  if (!isApiError(error) || !statuses.includes(error.status)) return false;
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

/**
 * A list field's error in the current language: the list's own (too many, choose one), else its
 * first wrong item's (`labels.2`: not a label), as react-hook-form keeps them.
 */
export function listFieldError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = error as FieldError & { root?: FieldError };
  if (own.message) return fieldError(own);
  if (own.root?.message) return fieldError(own.root);
  if (Array.isArray(error)) return fieldError((error as (FieldError | undefined)[]).find(Boolean));
  return undefined;
}
