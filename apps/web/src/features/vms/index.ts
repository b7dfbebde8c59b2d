/** What other features may use of vms (lint: no reaching into a feature's files). */
export { vmKeys } from './api/keys';
export { ConnectivityBadge } from './components/connectivity-badge';
export { VmMultiSelect } from './components/vm-multi-select';
export type { VmChoice } from './components/vm-multi-select';
export { VmSelect } from './components/vm-select';
export { VMS_PATH } from './paths';
