/** Tasks base, under the client's `/api`. */
export const TASK_BASE = '/rota/task/api/v1';
