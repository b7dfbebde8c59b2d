import { registerTranslations } from '../../lib/i18n';
import { useNamespaceTranslation } from '../operations/use-namespace-translation';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** The VMs area's strings; `useVmsTranslation()`. */
export const VMS_NS = registerTranslations('vms', { pt, en });

export const useVmsTranslation = () => useNamespaceTranslation<typeof en>(VMS_NS);
