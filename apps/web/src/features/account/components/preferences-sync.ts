import { useEffect } from 'react';
import { useMantineColorScheme } from '@mantine/core';
import type { ColorScheme, Language, MeResponse } from '@rota/contract';
import { changeLanguage, currentLanguage } from '../../../lib/i18n';
import { useUpdateAccount } from '../api/update-account';

/**
 * The language and colour scheme kept with the account applied to this browser: at
 * sign-in on any browser, and whenever another tab or device changed them.
 */
export function useApplyAccountPreferences(user: MeResponse | undefined) {
  const { setColorScheme } = useMantineColorScheme();
  const language = user?.language ?? null;
  const scheme = user?.color_scheme ?? null;
  useEffect(() => {
    if (language && language !== currentLanguage()) void changeLanguage(language);
  }, [language]);
  useEffect(() => {
    if (scheme) setColorScheme(scheme);
  }, [scheme, setColorScheme]);
}

/**
 * The header's switches and the account page: applied here at once, then kept on the server
 * (quietly; a failure is reported as any other). Signed out, there is no account to keep them.
 */
export function useSavePreferences(signedIn: boolean) {
  const { setColorScheme } = useMantineColorScheme();
  const update = useUpdateAccount({ quietSuccess: true });
  return {
    language(lang: Language) {
      void changeLanguage(lang);
      if (signedIn) update.mutate({ language: lang });
    },
    colorScheme(next: ColorScheme) {
      setColorScheme(next);
      if (signedIn) update.mutate({ color_scheme: next });
    },
  };
}
