/** A permission is AREA.ACTION. */
export const PERMISSION_AREAS = [
  'ROBOS',
  'ATIVIDADES',
  'AGENDAMENTOS',
  'PARAMETROS',
  'AGENTES',
  'USUARIOS',
  'HISTORIC',
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

export const PERMISSION_ACTIONS = ['LIST', 'CREATE', 'UPDATE', 'DELETE'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export type Permission = `${PermissionArea}.${PermissionAction}`;

export const PERMISSIONS: readonly Permission[] = PERMISSION_AREAS.flatMap((area) =>
  PERMISSION_ACTIONS.map((action) => `${area}.${action}` as Permission),
);

/**
 * The user must hold every listed permission; an empty list, or a list holding only
 * an empty string, means no restriction.
 */
export function hasPermissions(
  held: readonly string[] | undefined,
  required: readonly string[],
): boolean {
  const needed = required.filter((p) => p !== '');
  if (needed.length === 0) return true;
  if (!held) return false;
  return needed.every((p) => held.includes(p));
}

/** Console routes and the permissions that guard them. */
export const ROUTE_PERMISSIONS = {
  '/dashboard': [],
  '/activity': ['HISTORIC.LIST'],
  '/parameter': ['PARAMETROS.LIST'],
  '/robot': ['ROBOS.LIST'],
  '/robot/field': ['ROBOS.LIST'],
  '/task': ['ATIVIDADES.LIST'],
  '/scheduling': ['AGENDAMENTOS.LIST'],
  /** Business calendars, under Schedulings. */
  '/scheduling/calendar': ['AGENDAMENTOS.LIST'],
  '/node': ['AGENTES.LIST'],
  '/vm': ['AGENTES.LIST'],
  '/env': ['USUARIOS.LIST'],
  '/user': ['USUARIOS.LIST'],
  '/team': ['USUARIOS.LIST'],
  '/connector': ['USUARIOS.LIST'],
  '/configuration': ['USUARIOS.LIST'],
  /** Also only for platform administrators. */
  '/client': ['USUARIOS.LIST'],
  /** Single sign-on group mappings, under Clients; also only for platform administrators. */
  '/client/sso': ['USUARIOS.LIST'],
  '/audit': ['USUARIOS.LIST'],
  /** Alert rules and their delivery log. */
  '/alert': ['USUARIOS.LIST'],
  /** Syslog destinations of the client's audit records and runs, managed like alert rules. */
  '/log-stream': ['USUARIOS.LIST'],
} as const satisfies Record<string, readonly Permission[]>;
export type ConsoleRoute = keyof typeof ROUTE_PERMISSIONS;
