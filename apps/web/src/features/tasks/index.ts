/** What other features may use of tasks (lint: no reaching into a feature's files). */
export { taskKeys } from './api/keys';
export { TaskFormDrawer } from './components/task-form-drawer';
export { TasksTable } from './components/tasks-table';
export { ExecutionTasks } from './components/execution-tasks';
export { TASKS_PATH, taskPath, tasksOfRobotPath } from './paths';
