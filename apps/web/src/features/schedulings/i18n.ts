import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The schedulings area's strings; `useSchedulingsTranslation()`. */
registerTranslations('schedulings', { pt, en });

export const useSchedulingsTranslation = () => useTranslation('schedulings').t;
