import { registerTranslations } from '../../lib/i18n';
import { useNamespaceTranslation } from '../operations/use-namespace-translation';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The schedulings area's strings; `useSchedulingsTranslation()`. */
export const SCHEDULINGS_NS = registerTranslations('schedulings', { pt, en });

export const useSchedulingsTranslation = () => useNamespaceTranslation<typeof en>(SCHEDULINGS_NS);
