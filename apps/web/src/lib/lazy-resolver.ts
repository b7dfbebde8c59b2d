import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form's resolver loaded with its first validation (a submit, by default) instead of with the
 * page, for a page whose first paint should not wait for zod's parser (the sign-in
 * page). `preload` starts the download early, from a field's focus. A failed download is retried
 * by the next validation.
 */
export function lazyResolver<T extends FieldValues>(
  load: () => Promise<Resolver<T>>,
): { resolver: Resolver<T>; preload: () => void } {
  let loading: Promise<Resolver<T>> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => {
      get().catch(() => {
        // The submit retries and reports it.
      });
    },
  };
}
