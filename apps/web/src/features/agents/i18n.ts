import { registerTranslations } from '../../lib/i18n';
import { useNamespaceTranslation } from '../operations/use-namespace-translation';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The agents area's strings; `useAgentsTranslation()`. */
export const AGENTS_NS = registerTranslations('agents', { pt, en });

export const useAgentsTranslation = () => useNamespaceTranslation<typeof en>(AGENTS_NS);
