import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The users area's strings (users, access requests); `useTranslation('users')`. */
registerTranslations('users', { pt, en });
