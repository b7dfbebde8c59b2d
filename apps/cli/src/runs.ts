import type { paths } from '../../server/test/generated/api.js';
import { call, collect } from './api.js';
import { positiveInt, seconds } from './args.js';
import { type Context, printJson } from './context.js';
import { CliError, EXIT } from './errors.js';
import { resolveRobot } from './robots.js';
import { addTask } from './tasks.js';
import { table } from './table.js';

const ACTIVITY = '/api/rota/activity/api/v1';
type Status = NonNullable<
  paths['/api/rota/activity/api/v1/index']['post']['requestBody']
>['content']['application/json']['status'];
const UNFINISHED: readonly string[] = ['queued', 'processing'];

export async function startRun(ctx: Context, robotRef: string) {
  // Settled before anything is queued: a mistyped option must not leave a run behind.
  const wait = ctx.options.wait ? waitSettings(ctx) : null;
  const robotId = await resolveRobot(ctx, robotRef);
  // The run's input goes through the robot's queue, where the robot reads its work from.
  if (ctx.options['task-data'] !== undefined) {
    await addTask(ctx, robotId, ctx.options['task-data'], { quiet: true });
  }
  const started = await call(ctx.api.POST('/api/rota/robot/api/v1/run', { body: { id: robotId } }));
  const id = started.data.execution_id;
  if (!wait) {
    if (ctx.json) return printJson(ctx, started.data);
    ctx.out(`${id}\n`);
    return;
  }
  ctx.err(`run ${id} queued; waiting for it to end\n`);
  return waitFor(ctx, id, wait);
}

interface WaitSettings {
  /** Seconds, or null to wait as long as the run takes. */
  timeout: number | null;
  intervalMs: number;
}

function waitSettings(ctx: Context): WaitSettings {
  return {
    timeout:
      ctx.options.timeout === undefined ? null : seconds(ctx.options.timeout, '--timeout', 0),
    intervalMs: seconds(ctx.options.interval, '--interval', 2) * 1000,
  };
}

/** Polls the run until it ends; exit 1 unless it succeeded or when the wait ran out. */
async function waitFor(ctx: Context, id: number, { timeout, intervalMs }: WaitSettings) {
  const deadline = timeout === null ? Infinity : Date.now() + timeout * 1000;
  for (;;) {
    const shown = await call(ctx.api.POST(`${ACTIVITY}/show`, { body: { id } }));
    const run = shown.data;
    if (!UNFINISHED.includes(run.status)) {
      if (ctx.json) printJson(ctx, run);
      else ctx.out(`${id} ${run.status}${run.message ? `: ${run.message}` : ''}\n`);
      if (run.status !== 'success') {
        throw new CliError(`run ${id} ended ${run.status}`, EXIT.failed);
      }
      return;
    }
    if (Date.now() + intervalMs > deadline) {
      throw new CliError(`run ${id} is still ${run.status} after the --timeout`, EXIT.failed);
    }
    await ctx.sleep(intervalMs);
  }
}

export async function listRuns(ctx: Context, robotRef: string | undefined) {
  // The server checks the status and names the valid ones in its field error (exit 2).
  const status = ctx.options.status;
  const limit = ctx.options.limit ? positiveInt(ctx.options.limit, '--limit') : 20;
  const filter = {
    ...(status !== undefined ? { status: status as Status } : {}),
    ...(robotRef ? { rota_robots_id: await resolveRobot(ctx, robotRef) } : {}),
  };
  const rows = await collect(limit, (page, per_page) =>
    call(ctx.api.POST(`${ACTIVITY}/index`, { body: { ...filter, page, per_page } })),
  );
  if (ctx.json) return printJson(ctx, rows);
  ctx.out(
    table(
      ['ID', 'ROBOT', 'STATUS', 'QUEUED', 'ENDED', 'AGENT'],
      rows.map((r) => [
        r.execution_id,
        r.rota_robots_name,
        r.status,
        r.queued_at,
        r.end_date,
        r.rota_executor_name,
      ]),
    ),
  );
}

export async function showRun(ctx: Context, idArg: string | undefined) {
  const id = positiveInt(idArg, 'ID');
  const shown = await call(ctx.api.POST(`${ACTIVITY}/show`, { body: { id } }));
  if (ctx.json) return printJson(ctx, shown.data);
  const r = shown.data;
  ctx.out(
    table(
      ['FIELD', 'VALUE'],
      [
        ['id', r.execution_id],
        ['robot', `${r.rota_robots_name} (${r.rota_robots_id})`],
        ['status', r.status],
        ['version', r.version],
        ['agent', r.rota_executor_name],
        ['queued', r.queued_at],
        ['started', r.start_date],
        ['ended', r.end_date],
        ['attempts', r.attempts],
        ['exit code', r.exit_code],
        ['message', r.message],
      ],
    ),
  );
}

export async function runLogs(ctx: Context, idArg: string | undefined) {
  const id = positiveInt(idArg, 'ID');
  const lines = [];
  // Page on by sequence number until a page comes back short: the whole log, in order.
  for (let after = 0; ;) {
    const page = await call(ctx.api.POST(`${ACTIVITY}/logs`, { body: { id, after, limit: 5000 } }));
    lines.push(...page.data);
    if (page.data.length < 5000) break;
    after = page.data[page.data.length - 1]!.seq;
  }
  if (ctx.json) return printJson(ctx, lines);
  for (const line of lines) ctx.out(`${line.at} ${line.stream} ${line.line}\n`);
}

export async function stopRun(ctx: Context, idArg: string | undefined) {
  const id = positiveInt(idArg, 'ID');
  if (ctx.options.grace !== undefined && !/^\d+$/.test(ctx.options.grace)) {
    throw new CliError('--grace must be a whole number of seconds', EXIT.usage);
  }
  const grace = ctx.options.grace === undefined ? {} : { grace_seconds: Number(ctx.options.grace) };
  const answer = await call(ctx.api.POST(`${ACTIVITY}/stop`, { body: { id, ...grace } }));
  if (ctx.json) return printJson(ctx, answer ?? {});
  ctx.out(`stop requested for run ${id}\n`);
}
