import { ActionIcon, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@rota/contract';
import { changeLanguage, currentLanguage } from '../lib/i18n';

/**
 * Language switch: i18n saves the choice in localStorage.lang and sets <html lang>; signed in,
 * `onChange` also keeps it with the account (issue 16).
 */
export function LanguageMenu({ onChange }: { onChange?: (lang: Language) => void } = {}) {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <Menu position="bottom-end" shadow="md" width={160}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('language.label')}>
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
