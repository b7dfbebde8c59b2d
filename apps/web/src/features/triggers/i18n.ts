import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The run triggers area's strings; `useTriggersTranslation()`. */
registerTranslations('triggers', { pt, en });

export const useTriggersTranslation = () => useTranslation('triggers').t;
