import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The teams area's strings; `useTeamsTranslation()`. */
registerTranslations('teams', { pt, en });

export const useTeamsTranslation = () => useTranslation('teams').t;
