import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The agents area's strings; `useAgentsTranslation()`. */
registerTranslations('agents', { pt, en });

export const useAgentsTranslation = () => useTranslation('agents').t;
