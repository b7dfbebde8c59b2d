import { call, collect } from './api.js';
import { type Context, printJson } from './context.js';
import { CliError, EXIT } from './errors.js';
import { table } from './table.js';

const ROBOTS = '/api/rota/robot/api/v1/index';

export async function listRobots(ctx: Context) {
  const rows = await collect(Infinity, (page, per_page) =>
    call(ctx.api.POST(ROBOTS, { body: { page, per_page } })),
  );
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
  const search = ref.slice(0, 200);
  const found = await collect(Infinity, (page, per_page) =>
    call(ctx.api.POST(ROBOTS, { body: { search, page, per_page } })),
  );
  const exact = found.filter((r) => r.name === ref);
  if (exact.length === 0) throw new CliError(`No robot named "${ref}"`, EXIT.notFound);
  if (exact.length > 1) {
    throw new CliError(`More than one robot is named "${ref}": use its id`, EXIT.usage);
  }
  return exact[0]!.rota_robots_id;
}
