import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The parameters area's strings; `useParametersTranslation()`. */
registerTranslations('parameters', { pt, en });

export const useParametersTranslation = () => useTranslation('parameters').t;
