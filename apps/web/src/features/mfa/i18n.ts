import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** Two-step verification's strings; `useMfaTranslation()`. */
registerTranslations('mfa', { pt, en });

export const useMfaTranslation = () => useTranslation('mfa').t;
