import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

type PluralSuffix = '_zero' | '_one' | '_two' | '_few' | '_many' | '_other';
type WithoutPlural<K extends string> = K extends `${infer Base}${PluralSuffix}` ? Base : K;

/** Dotted paths to the strings of a locale file (`list.new`); plural forms by their base key. */
export type TranslationKey<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${WithoutPlural<K>}`
    : TranslationKey<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Interpolation values (`{{name}}`) and `count` for plurals. */
export type TranslationValues = Record<string, string | number>;

export type NamespaceT<T> = (key: TranslationKey<T>, values?: TranslationValues) => string;

type UntypedT = (key: string, options?: Record<string, unknown>) => string;

/**
 * `t` of a feature namespace, its keys checked against the feature's own `locales/en.json`.
 *
 * Stopgap: `lib/i18next.d.ts` types the namespaces it lists (robots, tasks), and `useTranslation`
 * rejects any other. Once `vms`, `agents`, `schedulings` and `parameters` are listed there, each
 * `use…Translation()` can become `useTranslation('<area>')` with no other change to its callers.
 * Re-renders on a language change like `useTranslation` does.
 */
export function useNamespaceTranslation<T>(namespace: string): NamespaceT<T> {
  const { t } = useTranslation();
  const untyped = t as unknown as UntypedT;
  return useCallback<NamespaceT<T>>(
    (key, values) => untyped(key, { ...values, ns: namespace }),
    [untyped, namespace],
  );
}
