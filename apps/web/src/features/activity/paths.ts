/** Console paths of the activity area. */
export const ACTIVITY_PATH = '/activity';

export type ExecutionTab = 'details' | 'attempts' | 'logs' | 'evidence';

/** An execution's page, optionally on one of its tabs (`?tab=`). */
export function executionPath(id: number, tab?: ExecutionTab): string {
  return `${ACTIVITY_PATH}/${id}${tab && tab !== 'details' ? `?tab=${tab}` : ''}`;
}

/** The activity list filtered to one robot (its other filters at their defaults). */
export function robotActivityPath(robotId: number): string {
  return `${ACTIVITY_PATH}?rota_robots_id=${robotId}`;
}
