import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The sessions page's strings; `useSessionsTranslation()`. */
registerTranslations('sessions', { pt, en });

export const useSessionsTranslation = () => useTranslation('sessions').t;
