import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** "My robots" and its run drawer; `useTranslation('attended')`. */
registerTranslations('attended', { pt, en });
