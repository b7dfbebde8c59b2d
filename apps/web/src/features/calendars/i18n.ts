import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The business calendars area's strings; `useCalendarsTranslation()`. */
registerTranslations('calendars', { pt, en });

export const useCalendarsTranslation = () => useTranslation('calendars').t;
