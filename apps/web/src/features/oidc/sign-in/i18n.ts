import { registerTranslations } from '../../../lib/i18n';
import en from '../locales/sign-in/en.json';
import pt from '../locales/sign-in/pt.json';

/**
 * The sign-in button's few strings, apart from the mappings page's: the sign-in page loads
 * these, and its first download must stay small. Named `i18n.ts` like every feature's, which
 * the build keeps for its side effect (vite.config.ts). `useTranslation('oidcSignIn')`.
 */
registerTranslations('oidcSignIn', { pt, en });
