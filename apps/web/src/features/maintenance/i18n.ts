import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The maintenance banner and its drawer; `useTranslation('maintenance')`. */
registerTranslations('maintenance', { pt, en });
