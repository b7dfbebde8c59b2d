import {
  PERMISSIONS,
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  type Permission,
  type PermissionAction,
  type PermissionArea,
} from '@rota/contract';

/** How much of a row or a column of the matrix is granted. */
export type Coverage = 'all' | 'some' | 'none';

export const permissionOf = (area: PermissionArea, action: PermissionAction): Permission =>
  `${area}.${action}`;

/** Only catalogue permissions, each once, in the catalogue's order (areas, then actions). */
export function normalizePermissions(list: readonly string[]): Permission[] {
  const held = new Set(list);
  return PERMISSIONS.filter((permission) => held.has(permission));
}

function coverage(list: readonly string[], group: readonly Permission[]): Coverage {
  const count = group.filter((permission) => list.includes(permission)).length;
  return count === 0 ? 'none' : count === group.length ? 'all' : 'some';
}

const ofArea = (area: PermissionArea) => PERMISSION_ACTIONS.map((a) => permissionOf(area, a));
const ofAction = (action: PermissionAction) =>
  PERMISSION_AREAS.map((area) => permissionOf(area, action));

export const areaCoverage = (list: readonly string[], area: PermissionArea) =>
  coverage(list, ofArea(area));
export const actionCoverage = (list: readonly string[], action: PermissionAction) =>
  coverage(list, ofAction(action));
export const allCoverage = (list: readonly string[]) => coverage(list, PERMISSIONS);

/** Grants the group unless all of it is held already, in which case it revokes it. */
function toggleGroup(list: readonly string[], group: readonly Permission[]): Permission[] {
  const full = group.every((permission) => list.includes(permission));
  const next = full
    ? list.filter((permission) => !group.includes(permission as Permission))
    : [...list, ...group];
  return normalizePermissions(next);
}

export const togglePermission = (list: readonly string[], permission: Permission) =>
  toggleGroup(list, [permission]);
export const toggleArea = (list: readonly string[], area: PermissionArea) =>
  toggleGroup(list, ofArea(area));
export const toggleAction = (list: readonly string[], action: PermissionAction) =>
  toggleGroup(list, ofAction(action));
export const toggleAll = (list: readonly string[]) => toggleGroup(list, PERMISSIONS);
