import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The clients area's strings; `useTranslation('clients')`. */
registerTranslations('clients', { pt, en });
