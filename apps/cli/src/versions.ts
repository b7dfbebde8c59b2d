import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { call } from './api.js';
import { required } from './args.js';
import { type Context, printJson } from './context.js';
import { CliError, EXIT } from './errors.js';
import { resolveRobot } from './robots.js';

export async function uploadVersion(ctx: Context, robotRef: string, fileArg: string | undefined) {
  const file = required(fileArg, 'FILE');
  const version = required(ctx.options.version, '--version');
  const robotId = await resolveRobot(ctx, robotRef);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
  }
  // Text parts first: the server reads them before it streams the package.
  const form = new FormData();
  form.append('rota_robots_id', String(robotId));
  form.append('version', version);
  if (ctx.options.notes !== undefined) form.append('notes', ctx.options.notes);
  form.append('file', new Blob([new Uint8Array(bytes)]), path.basename(file));
  const created = await call(
    ctx.api.POST('/api/rota/robot/version/api/v1/create', {
      body: form as never,
      // fetch sets the multipart boundary itself when handed the FormData untouched.
      bodySerializer: (body: unknown) => body as FormData,
    }),
  );
  if (ctx.json) return printJson(ctx, created.data);
  ctx.out(
    `${created.data.rota_robot_versions_id} ${created.data.version} ${created.data.sha256}\n`,
  );
}
