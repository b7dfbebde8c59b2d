import { registerTranslations } from '../../lib/i18n';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The VMs area's strings; `useVmsTranslation()`. */
registerTranslations('vms', { pt, en });

export const useVmsTranslation = () => useTranslation('vms').t;
