import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The group mappings page's strings; `useTranslation('oidc')`. */
registerTranslations('oidc', { pt, en });
