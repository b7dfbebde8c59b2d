/** Query keys of maintenance windows, so no component writes one inline. */
export const maintenanceKeys = {
  all: ['maintenance'] as const,
  active: () => [...maintenanceKeys.all, 'active'] as const,
};
