import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The log streams area's strings; `useLogStreamsTranslation()`. */
registerTranslations('logStreams', { pt, en });

export const useLogStreamsTranslation = () => useTranslation('logStreams').t;
