import type {
  robotFieldListQuerySchema,
  robotListQuerySchema,
  robotVersionListQuerySchema,
} from '@rota/contract';
import type { z } from 'zod';

export type RobotFieldListBody = z.input<typeof robotFieldListQuerySchema>;
export type RobotListBody = z.input<typeof robotListQuerySchema>;
export type RobotVersionListBody = z.input<typeof robotVersionListQuerySchema>;

/** Query keys of the robots area (robots, versions, fields), so no component writes one inline. */
export const robotKeys = {
  all: ['robots'] as const,
  lists: () => [...robotKeys.all, 'list'] as const,
  list: (body: RobotListBody) => [...robotKeys.lists(), body] as const,
  details: () => [...robotKeys.all, 'detail'] as const,
  detail: (id: number) => [...robotKeys.details(), id] as const,
};

export const robotVersionKeys = {
  all: ['robot-versions'] as const,
  /** Every list of one robot's versions (what an upload, a rollback or a delete changes). */
  ofRobot: (robotId: number) => [...robotVersionKeys.all, robotId] as const,
  list: (body: RobotVersionListBody) =>
    [...robotVersionKeys.ofRobot(body.rota_robots_id), 'list', body] as const,
  detail: (robotId: number, id: number) =>
    [...robotVersionKeys.ofRobot(robotId), 'detail', id] as const,
};

export const robotFieldKeys = {
  all: ['robot-fields'] as const,
  lists: () => [...robotFieldKeys.all, 'list'] as const,
  list: (body: RobotFieldListBody) => [...robotFieldKeys.lists(), body] as const,
  /** All fields of one robot (the task form builds its inputs from them). */
  ofRobot: (robotId: number) => [...robotFieldKeys.all, 'robot', robotId] as const,
};
