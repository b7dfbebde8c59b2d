import { z } from 'zod';
import { idSchema, requiredTextSchema } from './common.js';
import { labelListSchema } from './labels.js';
import { taskDataSchema } from './tasks.js';
import { CONNECTIVITY } from './vms.js';

/**
 * Attended runs: a person starts a robot on their own machine, where an agent installed for them
 * (`--attended --user ACCESS`) runs it in their desktop session. Only that agent takes the run.
 */

/** "My robots" → Run: the robot, which of the caller's attended agents, and the run's own data. */
export const attendedRunSchema = z.object({
  id: idSchema,
  /** One of the caller's attended agents; absent: their only one, or the only one active. */
  rota_nodes_id: idSchema.optional(),
  /** Data for this run alone: a task created with the run, which only this run takes. */
  task_data: taskDataSchema.optional(),
});
export type AttendedRun = z.infer<typeof attendedRunSchema>;

/** `rota-agent run ROBOT [--task-data JSON]`: the agent's user starts a robot on this agent. */
export const agentAttendedRunSchema = z.object({
  /** The robot's name (any case), or its id. */
  robot: requiredTextSchema(200, 'required_robot'),
  task_data: taskDataSchema.optional(),
});
export type AgentAttendedRun = z.infer<typeof agentAttendedRunSchema>;

export const attendedAgentSchema = z.object({
  rota_nodes_id: z.number().int(),
  name: z.string(),
  rota_vms_id: z.number().int(),
  vm_name: z.string(),
  connectivity: z.enum(CONNECTIVITY),
});
export type AttendedAgent = z.infer<typeof attendedAgentSchema>;

export const myRobotSchema = z.object({
  rota_robots_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  required_labels: labelListSchema,
  /** The caller's attended agents that carry every label the robot needs. */
  agent_ids: z.array(z.number().int()),
});
export type MyRobot = z.infer<typeof myRobotSchema>;

/** The robots the caller may run on their own machines, and those machines' agents. */
export const myRobotsResponseSchema = z.object({
  data: z.object({
    agents: z.array(attendedAgentSchema),
    robots: z.array(myRobotSchema),
    /** More robots matched than the answer holds (narrow with `search`). */
    truncated: z.boolean(),
  }),
});
export type MyRobots = z.infer<typeof myRobotsResponseSchema>['data'];

export const myRobotsQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
});

/** How many robots "My robots" answers at most. */
export const MY_ROBOTS_LIMIT = 200;
