import { registerTranslations } from '../../../lib/i18n';
import en from '../locales/link/en.json';
import pt from '../locales/link/pt.json';

/** My account's single sign-on card; `useTranslation('oidcLink')`. */
registerTranslations('oidcLink', { pt, en });
