import {
  IconActivity,
  IconBell,
  IconFileExport,
  IconAdjustmentsHorizontal,
  IconBuildingSkyscraper,
  IconCalendarOff,
  IconCalendarTime,
  IconDatabaseCog,
  IconDeviceDesktop,
  IconHistory,
  IconHome,
  IconKey,
  IconListCheck,
  IconListDetails,
  IconRobot,
  IconServer2,
  IconUsers,
  IconUsersGroup,
  IconUserScreen,
  type Icon,
} from '@tabler/icons-react';
import { ROUTE_PERMISSIONS, type ConsoleRoute, type Permission } from '@rota/contract';
import { MY_ROBOTS_PATH } from '../../attended';

export type NavItem = {
  to: ConsoleRoute | typeof MY_ROBOTS_PATH;
  label:
    | 'nav.home'
    | 'nav.activity'
    | 'nav.parameters'
    | 'nav.robots'
    | 'nav.myRobots'
    | 'nav.tasks'
    | 'nav.schedulings'
    | 'nav.calendars'
    | 'nav.agents'
    | 'nav.vms'
    | 'nav.environment'
    | 'nav.users'
    | 'nav.teams'
    | 'nav.configurationItem'
    | 'nav.clients'
    | 'nav.sso'
    | 'nav.audit'
    | 'nav.alerts'
    | 'nav.logStreams';
  icon: Icon;
  /** Shown only to platform administrators (on top of the route's permissions). */
  platformAdmin?: true;
  /** For a page the contract's route table does not list: the permissions that show it. */
  permissions?: readonly Permission[];
  /** A page under the entry before it (Schedulings → Calendars, Robots → Tasks): shown indented. */
  nested?: true;
};

/** The sidebar, in order; each entry is shown only with its route's permissions. */
export const MAIN_NAV: readonly NavItem[] = [
  { to: '/dashboard', label: 'nav.home', icon: IconHome },
  { to: '/activity', label: 'nav.activity', icon: IconActivity },
  { to: '/parameter', label: 'nav.parameters', icon: IconAdjustmentsHorizontal },
  { to: '/robot', label: 'nav.robots', icon: IconRobot },
  { to: '/task', label: 'nav.tasks', icon: IconListCheck, nested: true },
  {
    to: MY_ROBOTS_PATH,
    label: 'nav.myRobots',
    icon: IconUserScreen,
    permissions: ['ROBOS.UPDATE'],
  },
  { to: '/scheduling', label: 'nav.schedulings', icon: IconCalendarTime },
  { to: '/scheduling/calendar', label: 'nav.calendars', icon: IconCalendarOff, nested: true },
  { to: '/node', label: 'nav.agents', icon: IconServer2 },
  { to: '/vm', label: 'nav.vms', icon: IconDeviceDesktop, nested: true },
];

/** The Configuration dropdown's entries. */
export const CONFIGURATION_NAV: readonly NavItem[] = [
  { to: '/env', label: 'nav.environment', icon: IconDatabaseCog },
  { to: '/user', label: 'nav.users', icon: IconUsers },
  { to: '/team', label: 'nav.teams', icon: IconUsersGroup },
  { to: '/connector', label: 'nav.configurationItem', icon: IconListDetails },
  { to: '/client', label: 'nav.clients', icon: IconBuildingSkyscraper, platformAdmin: true },
  { to: '/client/sso', label: 'nav.sso', icon: IconKey, platformAdmin: true, nested: true },
  { to: '/audit', label: 'nav.audit', icon: IconHistory },
  { to: '/alert', label: 'nav.alerts', icon: IconBell },
  { to: '/log-stream', label: 'nav.logStreams', icon: IconFileExport },
];

/** The dropdown shows if the user may list environments or users. */
export const CONFIGURATION_GATES: readonly ConsoleRoute[] = ['/env', '/user'];

/** What an entry needs: its own permissions, else its route's in the contract. */
export function navPermissions(item: NavItem): readonly Permission[] {
  return item.permissions ?? ROUTE_PERMISSIONS[item.to as ConsoleRoute];
}

export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The entry the page belongs to: the longest one whose path holds it (`/scheduling/calendar`). */
export function isActiveItem(pathname: string, to: string, items: readonly NavItem[]): boolean {
  if (!isActivePath(pathname, to)) return false;
  return !items.some(
    (item) =>
      item.to.length > to.length && item.to.startsWith(to) && isActivePath(pathname, item.to),
  );
}
