import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The robots area's strings (robots, versions, fields); `useTranslation('robots')`. */
registerTranslations('robots', { pt, en });
