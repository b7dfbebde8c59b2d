import { call, collect } from './api.js';
import { jsonObject, positiveInt } from './args.js';
import { type Context, printJson } from './context.js';
import { resolveRobot } from './robots.js';
import { table } from './table.js';

const TASKS = '/api/rota/task/api/v1';
/** How long an added task may wait when --expires is not given. */
const DEFAULT_EXPIRY_DAYS = 7;

export async function addTaskCommand(ctx: Context, robotRef: string) {
  const robotId = await resolveRobot(ctx, robotRef);
  await addTask(ctx, robotId, ctx.options.data, { quiet: false });
}

export async function addTask(
  ctx: Context,
  robotId: number,
  dataArg: string | undefined,
  { quiet }: { quiet: boolean },
) {
  const data = jsonObject(dataArg, quiet ? '--task-data' : '--data');
  const expiry = new Date(Date.now() + DEFAULT_EXPIRY_DAYS * 86_400_000).toISOString();
  const body = {
    rota_robots_id: robotId,
    data,
    expiration_date: ctx.options.expires ?? expiry,
    ...(ctx.options.label !== undefined ? { label: ctx.options.label } : {}),
    ...(ctx.options.priority !== undefined
      ? { priority: positiveInt(ctx.options.priority, '--priority') }
      : {}),
  };
  const created = await call(ctx.api.POST(`${TASKS}/create`, { body }));
  if (quiet) return created.data;
  if (ctx.json) printJson(ctx, created.data);
  else ctx.out(`${created.data.rota_tasks_id}\n`);
  return created.data;
}

export async function listTasks(ctx: Context) {
  const limit = ctx.options.limit ? positiveInt(ctx.options.limit, '--limit') : 20;
  const filter = ctx.options.robot
    ? { rota_robots_id: await resolveRobot(ctx, ctx.options.robot) }
    : {};
  const rows = await collect(limit, (page, per_page) =>
    call(ctx.api.POST(`${TASKS}/index`, { body: { ...filter, page, per_page } })),
  );
  if (ctx.json) return printJson(ctx, rows);
  ctx.out(
    table(
      ['ID', 'ROBOT', 'STATUS', 'LABEL', 'PRIORITY', 'EXPIRES', 'DATA'],
      rows.map((t) => [
        t.rota_tasks_id,
        t.rota_robots_name,
        t.status,
        t.label,
        t.priority,
        t.expiration_date,
        JSON.stringify(t.data),
      ]),
    ),
  );
}
