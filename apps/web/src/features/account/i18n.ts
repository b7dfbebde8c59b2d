import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** "My account"'s strings; `useAccountTranslation()`. */
registerTranslations('account', { pt, en });

export const useAccountTranslation = () => useTranslation('account').t;
