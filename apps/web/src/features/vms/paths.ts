/** Console path of the VMs list (no sidebar entry: reached from the agents page). */
export const VMS_PATH = '/vm';
