/** Console path of the agents list (`/node`). */
export const AGENTS_PATH = '/node';

/** The agents list filtered to one VM (the VMs list links its agent count here). */
export function agentsOfVmPath(vmId: number): string {
  return `${AGENTS_PATH}?rota_vms_id=${vmId}`;
}
