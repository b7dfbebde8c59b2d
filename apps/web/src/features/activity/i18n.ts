import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The activity area's strings (executions, logs, run-now toast); `useActivityTranslation()`. */
registerTranslations('activity', { pt, en });

export const useActivityTranslation = () => useTranslation('activity').t;
