import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The audit log's strings; `useTranslation('audit')`. */
registerTranslations('audit', { pt, en });
