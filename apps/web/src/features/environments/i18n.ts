import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The environments area's strings; `useEnvironmentsTranslation()`. */
registerTranslations('environments', { pt, en });

export const useEnvironmentsTranslation = () => useTranslation('environments').t;
