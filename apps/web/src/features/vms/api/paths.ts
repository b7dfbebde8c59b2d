/** VMs base, under the client's `/api`. */
export const VM_BASE = '/rota/vm/api/v1';
