import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The profiles area's strings (and the permission catalogue's names); `useTranslation('profiles')`. */
registerTranslations('profiles', { pt, en });
