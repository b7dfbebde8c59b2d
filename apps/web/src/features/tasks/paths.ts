/** Console paths of the tasks area. */
export const TASKS_PATH = '/task';

/** A task's page. */
export function taskPath(id: number): string {
  return `${TASKS_PATH}/${id}`;
}

/** The tasks list filtered to one robot (the filter the list keeps in its URL). */
export function tasksOfRobotPath(robotId: number): string {
  return `${TASKS_PATH}?rota_robots_id=${robotId}`;
}
