import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The API keys area's strings; `useApiKeysTranslation()`. */
registerTranslations('apiKeys', { pt, en });

export const useApiKeysTranslation = () => useTranslation('apiKeys').t;
