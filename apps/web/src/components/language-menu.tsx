import { lazy, Suspense, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@rota/contract';

const loadDropdown = () => import('./language-menu-dropdown');
const LanguageMenuDropdown = lazy(loadDropdown);

/**
 * Language switch: i18n saves the choice in localStorage.lang and sets <html lang>; signed in,
 * `onChange` also keeps it with the account. Only the button is part of the first
 * paint: the menu (and the popover, focus trap and positioning code under it) loads when the
 * button is first pointed at, focused or clicked, and opens at once (it was most of
 * the sign-in page's own JavaScript).
 */
export function LanguageMenu({ onChange }: { onChange?: (lang: Language) => void } = {}) {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const button = (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={t('language.label')}
      aria-haspopup="menu"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => setUsed(true)}
    >
      <IconLanguage size={18} aria-hidden />
    </ActionIcon>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenuDropdown onChange={onChange} />
    </Suspense>
  );
}
