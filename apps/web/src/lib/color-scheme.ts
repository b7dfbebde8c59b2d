import type { MantineColorScheme } from '@mantine/core';

/**
 * The scheme of a browser where none was chosen (the account keeps none, this browser stored
 * none): the operating system's, followed live as it changes, which is what "System" in My
 * account says. Mantine keeps a choice in localStorage and resolves `auto` with
 * `prefers-color-scheme`.
 */
export const DEFAULT_COLOR_SCHEME: MantineColorScheme = 'auto';
