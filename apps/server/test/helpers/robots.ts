import { expect } from 'vitest';
import type { client } from './test-app.js';

/** A robot made through the API, for tests of what hangs off a robot (versions, fields, tasks). */
export async function createRobot(as: ReturnType<typeof client>, name: string): Promise<number> {
  const res = await as.post('/api/rota/robot/api/v1/create', { name, executor: 'node main.js' });
  expect(res.status).toBe(201);
  return res.body.data.rota_robots_id as number;
}
