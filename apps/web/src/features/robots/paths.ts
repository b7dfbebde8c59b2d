/** Console paths of the robots area. */
export const ROBOTS_PATH = '/robot';
export const ROBOT_FIELDS_PATH = '/robot/field';

export type RobotTab = 'overview' | 'tasks' | 'versions';
export type RobotVersionsTab = 'current' | 'repository';

/** A robot's page, optionally on one of its tabs (`?tab=`, `&vtab=` for the versions' sub-tab). */
export function robotPath(id: number, tab?: RobotTab, versionsTab?: RobotVersionsTab): string {
  const params = new URLSearchParams();
  if (tab && tab !== 'overview') params.set('tab', tab);
  if (versionsTab && versionsTab !== 'current') params.set('vtab', versionsTab);
  const search = params.toString();
  return `${ROBOTS_PATH}/${id}${search ? `?${search}` : ''}`;
}
