import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The live updates' strings (the "Ao vivo" indicator); `useLiveTranslation()`. */
registerTranslations('live', { pt, en });

export const useLiveTranslation = () => useTranslation('live').t;
