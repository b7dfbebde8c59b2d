/**
 * Styles for an input whose text is code (a hostname, a token, a parameter name): only the typed
 * text is monospace; `ff` on the input would turn its label and description monospace too.
 */
export const MONOSPACE_INPUT = {
  input: { fontFamily: 'var(--mantine-font-family-monospace)' },
} as const;
