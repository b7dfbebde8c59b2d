import { Paper, SegmentedControl, Stack, Text, Title, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  COLOR_SCHEMES,
  LANGUAGES,
  type ColorScheme,
  type Language,
  type MeResponse,
} from '@rota/contract';
import { currentLanguage } from '../../../lib/i18n';
import { useAccountTranslation } from '../i18n';
import { useSavePreferences } from './preferences-sync';

/** Language and colour scheme, applied at once and kept with the account. */
export function PreferencesForm({ user }: { user: MeResponse }) {
  const t = useAccountTranslation();
  const { t: tc } = useTranslation();
  const save = useSavePreferences(true);
  // The account's choice, else what this browser applies (its stored choice, or the system's):
  // never "System" shown over a scheme that is not following the system.
  const { colorScheme } = useMantineColorScheme();
  const scheme = user.color_scheme ?? colorScheme;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4">
        {t('preferences.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {t('preferences.hint')}
      </Text>
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="account-language">
            {t('preferences.language')}
          </Text>
          <SegmentedControl
            aria-labelledby="account-language"
            value={currentLanguage()}
            onChange={(value) => save.language(value as Language)}
            data={LANGUAGES.map((lang) => ({ value: lang, label: tc(`language.${lang}`) }))}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="account-color-scheme">
            {t('preferences.colorScheme')}
          </Text>
          <SegmentedControl
            aria-labelledby="account-color-scheme"
            value={scheme}
            onChange={(value) => save.colorScheme(value as ColorScheme)}
            data={COLOR_SCHEMES.map((s) => ({ value: s, label: t(`preferences.${s}`) }))}
          />
        </Stack>
      </Stack>
    </Paper>
  );
}
