import {
  AGENT_PROTOCOL_BASE,
  agentAttendedRunSchema,
  errorResponseSchema,
  runResponseSchema,
} from '@rota/contract';
import { errorMessage } from './logger.js';
import { parseOptions } from './options.js';

export const RUN_COMMAND = 'run';

export const RUN_USAGE = `Usage: rota-agent run <robot> [--task-data <json>] --server <url> --token-file <path>

  Starts a robot on this machine's attended agent, as the user it serves (the agent's
  --attended --user): an attended run that only this agent takes, in Activity like any other.
  <robot> is the robot's name (any case) or its id. The server and token are the agent's own:
  --server and --token-file, --token, or ROTA_SERVER and ROTA_AGENT_TOKEN(_FILE).

  --task-data <json>  a JSON object for this run alone: a task of the robot that only this run
                      takes (checked against the robot's fields), e.g. '{"invoice": "A-42"}'
`;

export interface RunCommandIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
}

/** Exit codes: 0 queued, 1 refused or unreachable, 2 bad arguments, 3 the token was refused. */
export async function runRobotCommand(argv: readonly string[], io: RunCommandIo): Promise<number> {
  const problems: string[] = [];
  const rest: string[] = [];
  let robot: string | undefined;
  let taskData: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      io.out(RUN_USAGE);
      return 0;
    }
    if (arg === '--task-data' || arg.startsWith('--task-data=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[(i += 1)];
      if (value === undefined) problems.push('--task-data needs a value');
      else if (taskData !== undefined) problems.push('--task-data is given more than once');
      else taskData = value;
      continue;
    }
    if (!arg.startsWith('-') && robot === undefined) {
      robot = arg;
      continue;
    }
    rest.push(arg);
    // A flag's value travels with it (--server URL), never taken for the robot.
    const next = argv[i + 1];
    if (
      arg.startsWith('--') &&
      !arg.includes('=') &&
      next !== undefined &&
      !next.startsWith('--')
    ) {
      rest.push(next);
      i += 1;
    }
  }
  if (robot === undefined) problems.push('name the robot to run: rota-agent run <robot>');
  let data: Record<string, unknown> | undefined;
  if (taskData !== undefined) {
    try {
      const parsed: unknown = JSON.parse(taskData);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        problems.push('--task-data must be a JSON object, e.g. \'{"invoice": "A-42"}\'');
      } else data = parsed as Record<string, unknown>;
    } catch (error) {
      problems.push(`--task-data is not JSON (${errorMessage(error)})`);
    }
  }
  const options = parseOptions(rest, io.env);
  if (options.kind === 'invalid') problems.push(...options.problems);
  if (options.kind !== 'ok' || problems.length > 0) {
    io.err(`rota-agent run: ${problems.map((p) => `\n  - ${p}`).join('')}\n\n${RUN_USAGE}`);
    return 2;
  }
  const body = agentAttendedRunSchema.safeParse({ robot, ...(data ? { task_data: data } : {}) });
  if (!body.success) {
    io.err(`rota-agent run: ${body.error.issues.map((i) => i.message).join('; ')}\n`);
    return 2;
  }

  const call = io.fetch ?? fetch;
  let lastError = 'no server answered';
  // Several addresses are instances of one Rota: the first that answers decides.
  for (const server of options.options.servers) {
    let res: Response;
    try {
      res = await call(`${server}${AGENT_PROTOCOL_BASE}/run`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.options.token}`,
          'content-type': 'application/json',
          'accept-language': io.env.LANG?.startsWith('pt') ? 'pt' : 'en',
        },
        body: JSON.stringify(body.data),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      lastError = `${server}: ${errorMessage(error)}`;
      continue;
    }
    const answer: unknown = await res.json().catch(() => undefined);
    if (res.status === 201) {
      const queued = runResponseSchema.safeParse(answer);
      if (queued.success) {
        io.out(`${queued.data.message}: #${queued.data.data.execution_id}\n`);
        return 0;
      }
    }
    const refusal = errorResponseSchema.safeParse(answer);
    const why = refusal.success
      ? [
          refusal.data.message,
          ...(refusal.data.errors ?? []).map((e) => `${e.field}: ${e.message}`),
        ]
      : [`HTTP ${res.status}`];
    io.err(`rota-agent run: ${why.join('\n  ')}\n`);
    return res.status === 401 ? 3 : 1;
  }
  io.err(`rota-agent run: ${lastError}\n`);
  return 1;
}
