#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { openApi } from './api.js';
import { required } from './args.js';
import { resolveTarget } from './config.js';
import type { Context, Options } from './context.js';
import { CliError, EXIT, usage } from './errors.js';
import { listRobots } from './robots.js';
import { listRuns, runLogs, showRun, startRun, stopRun } from './runs.js';
import { addTaskCommand, listTasks } from './tasks.js';
import { uploadVersion } from './versions.js';

const HELP = `rota: the Rota Control Room from scripts, over its public API with an API key.

Usage:
  rota robots list
  rota run ROBOT [--wait [--timeout S] [--interval S]] [--task-data JSON]
  rota runs list [--robot ROBOT] [--status STATUS] [--limit N]
  rota runs show ID
  rota runs logs ID
  rota runs stop ID [--grace S]
  rota tasks add ROBOT --data JSON [--label L] [--priority N] [--expires DATE]
  rota tasks list [--robot ROBOT] [--limit N]
  rota versions upload ROBOT FILE --version V [--notes TEXT]

ROBOT is a robot's id or its exact name.

Options:
  --json            print the API's JSON instead of a table
  --profile NAME    use profile NAME of the config file
  -h, --help        this help

Server and key: ROTA_URL and ROTA_API_KEY (a personal API key, rota_pat_...), or a profile
in $ROTA_CONFIG or ~/.config/rota/config.json:
  {"default": "prod", "profiles": {"prod": {"url": "https://rota.example", "api_key": "rota_pat_..."}}}

Exit codes:
  0  done (with --wait: the run succeeded)
  1  the run did not succeed or the --timeout passed (with --wait), or another failure
  2  usage error, or the server refused the input (400)
  3  not found (no such robot, run or task)
  4  the key was refused (401) or lacks the permission (403)
`;

const OPTIONS = {
  json: { type: 'boolean' },
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  wait: { type: 'boolean' },
  'task-data': { type: 'string' },
  timeout: { type: 'string' },
  interval: { type: 'string' },
  data: { type: 'string' },
  label: { type: 'string' },
  priority: { type: 'string' },
  expires: { type: 'string' },
  robot: { type: 'string' },
  status: { type: 'string' },
  version: { type: 'string' },
  notes: { type: 'string' },
  grace: { type: 'string' },
  limit: { type: 'string' },
} as const;

type Command = (ctx: Context, args: string[]) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  'robots list': (ctx) => listRobots(ctx),
  run: (ctx, [robot]) => startRun(ctx, required(robot, 'ROBOT')),
  'runs list': (ctx) => listRuns(ctx, ctx.options.robot),
  'runs show': (ctx, [id]) => showRun(ctx, id),
  'runs logs': (ctx, [id]) => runLogs(ctx, id),
  'runs stop': (ctx, [id]) => stopRun(ctx, id),
  'tasks add': (ctx, [robot]) => addTaskCommand(ctx, required(robot, 'ROBOT')),
  'tasks list': (ctx) => listTasks(ctx),
  'versions upload': (ctx, [robot, file]) => uploadVersion(ctx, required(robot, 'ROBOT'), file),
};

/** How many arguments each command takes after its name. */
const ARITY: Record<string, number> = {
  run: 1,
  'runs show': 1,
  'runs logs': 1,
  'runs stop': 1,
  'tasks add': 1,
  'versions upload': 2,
};

/** The command a line of arguments names, and the arguments left for it. */
function pick(positionals: string[]): { name: string; command: Command; rest: string[] } {
  const [first, second] = positionals;
  if (first === 'run') return { name: 'run', command: COMMANDS.run!, rest: positionals.slice(1) };
  if (!first) throw usage('missing a command');
  const name = `${first} ${second}`;
  const command = COMMANDS[name];
  if (!command) throw usage(`unknown command: ${positionals.slice(0, 2).join(' ')}`);
  return { name, command, rest: positionals.slice(2) };
}

async function main(
  argv: string[],
  io: { env: NodeJS.ProcessEnv; out(text: string): void; err(text: string): void },
): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw usage((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help || positionals.length === 0) {
      (values.help ? io.out : io.err)(HELP);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    const { name, command, rest } = pick(positionals);
    if (rest.length > (ARITY[name] ?? 0)) throw usage(`too many arguments for ${name}`);
    const target = await resolveTarget(io.env, values.profile, (line) => io.err(line + '\n'));
    const ctx: Context = {
      api: openApi(target),
      json: values.json ?? false,
      out: io.out,
      err: io.err,
      options: values as Options,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    await command(ctx, rest);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`rota: ${error.message}\n`);
      if (error.exitCode === EXIT.usage && !/\n/.test(error.message)) {
        io.err('Run rota --help for usage.\n');
      }
      return error.exitCode;
    }
    io.err(`rota: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failed;
  }
}

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
