import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ColorScheme } from '@rota/contract';

/** Light or dark; signed in, `onChange` also keeps the choice with the account. */
export function ColorSchemeToggle({ onChange }: { onChange?: (scheme: ColorScheme) => void } = {}) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: true });
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={t('theme.toggle')}
      onClick={() => (onChange ?? setColorScheme)(scheme === 'dark' ? 'light' : 'dark')}
    >
      {scheme === 'dark' ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
    </ActionIcon>
  );
}
