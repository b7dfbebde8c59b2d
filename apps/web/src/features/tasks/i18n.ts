import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The tasks area's strings; `useTranslation('tasks')`. */
registerTranslations('tasks', { pt, en });
