import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The status items area's strings; `useStatusItemsTranslation()`. */
registerTranslations('statusItems', { pt, en });

export const useStatusItemsTranslation = () => useTranslation('statusItems').t;
