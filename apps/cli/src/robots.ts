import { call } from './api.js';
import { type Context, printJson } from './context.js';
import { CliError, EXIT } from './errors.js';
import { table } from './table.js';

const ROBOTS = '/api/rota/robot/api/v1/index';
const PAGE = 100;

export async function listRobots(ctx: Context) {
  const rows = [];
  // Every page: a script that lists robots means all of them, not the first twenty.
  for (let page = 1; ; page += 1) {
    const answer = await call(ctx.api.POST(ROBOTS, { body: { page, per_page: PAGE } }));
    rows.push(...answer.data);
    if (answer.data.length < PAGE || rows.length >= answer.meta.total) break;
  }
  if (ctx.json) return printJson(ctx, rows);
  ctx.out(
    table(
      ['ID', 'NAME', 'ACTIVE', 'VERSION', 'EXECUTOR'],
      rows.map((r) => [
        r.rota_robots_id,
        r.name,
        r.active ? 'yes' : 'no',
        r.current_version?.version,
        r.executor,
      ]),
    ),
  );
}

/** A robot's id from its id or its exact name, as people and scripts both name robots. */
export async function resolveRobot(ctx: Context, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) {
    const shown = await call(
      ctx.api.POST('/api/rota/robot/api/v1/show', { body: { id: Number(ref) } }),
    );
    return shown.data.rota_robots_id;
  }
  const found = await call(
    ctx.api.POST(ROBOTS, { body: { search: ref.slice(0, 200), per_page: PAGE } }),
  );
  const exact = found.data.filter((r) => r.name === ref);
  if (exact.length === 0) throw new CliError(`No robot named "${ref}"`, EXIT.notFound);
  if (exact.length > 1) {
    throw new CliError(`More than one robot is named "${ref}": use its id`, EXIT.usage);
  }
  return exact[0]!.rota_robots_id;
}
