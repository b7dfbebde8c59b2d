import { registerTranslations } from '../../lib/i18n';
import { useNamespaceTranslation } from '../operations/use-namespace-translation';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The parameters area's strings; `useParametersTranslation()`. */
export const PARAMETERS_NS = registerTranslations('parameters', { pt, en });

export const useParametersTranslation = () => useNamespaceTranslation<typeof en>(PARAMETERS_NS);
