import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The users area's strings (users, access requests); `useTranslation('users')`. */
export const USERS_NS = registerTranslations('users', { pt, en });
