import { useEffect, useRef } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@rota/contract';
import { changeLanguage, currentLanguage } from '../lib/i18n';

/**
 * The language menu itself, loaded on the first click of its button (language-menu.tsx): it
 * mounts open, in place of the button that was clicked.
 */
export default function LanguageMenuDropdown({
  onChange,
}: {
  onChange?: (lang: Language) => void;
}) {
  const { t } = useTranslation();
  const current = currentLanguage();
  const target = useRef<HTMLButtonElement>(null);
  // The clicked button was replaced by this one: focus follows, so closing returns here.
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null)
      target.current?.focus();
  }, []);
  return (
    <Menu position="bottom-end" shadow="md" width={160} defaultOpened>
      <Menu.Target>
        <ActionIcon ref={target} variant="default" size="lg" aria-label={t('language.label')}>
          <IconLanguage size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((lang) => (
          <Menu.Item
            key={lang}
            lang={lang === 'pt' ? 'pt-BR' : 'en'}
            aria-current={lang === current ? 'true' : undefined}
            rightSection={lang === current ? <IconCheck size={16} aria-hidden /> : null}
            onClick={() => (onChange ? onChange(lang) : void changeLanguage(lang))}
          >
            {t(`language.${lang}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
