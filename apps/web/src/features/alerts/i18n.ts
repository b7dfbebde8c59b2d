import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The alerts area's strings; `useAlertsTranslation()`. */
registerTranslations('alerts', { pt, en });

export const useAlertsTranslation = () => useTranslation('alerts').t;
