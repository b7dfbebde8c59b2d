import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The dashboard's strings; `useDashboardTranslation()`. */
registerTranslations('dashboard', { pt, en });

export const useDashboardTranslation = () => useTranslation('dashboard').t;
