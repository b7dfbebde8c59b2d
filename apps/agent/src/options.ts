import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LABEL_PATTERN, LABELS_MAX } from '@rota/contract';

interface AgentCliOptions {
  /**
   * Server origins without a trailing slash, e.g. `https://rota.example.com`: one, or several
   * instances of one Rota to fail over between.
   */
  servers: string[];
  token: string;
  workDir: string;
  concurrency: number;
  graceSeconds: number;
  /** How it was started: by a service manager, by a logon task in a desktop session, or by hand. */
  mode: AgentMode;
  /** Labels it declares in every hello (what its machine can do: excel, chrome, sap). */
  labels?: string[];
  /**
   * An attended agent (`--attended --user ACCESS`): the Rota user whose own runs alone it takes,
   * in that person's desktop session.
   */
  attendedUser?: string;
}

export const AGENT_MODES = ['service', 'desktop', 'console'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

type ParsedOptions =
  | { kind: 'ok'; options: AgentCliOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'invalid'; problems: string[] };

export const USAGE = `Usage: rota-agent --server <url> --token-file <path> [options]
       rota-agent run <robot> [--task-data <json>] [options]  (rota-agent run --help)
       rota-agent install|uninstall|status [options]   (rota-agent install --help)

Options:
  --server <url>[,<url>] Rota server, e.g. https://rota.example.com  (env ROTA_SERVER);
                         several instances of one Rota, comma-separated, to fail over
  --token-file <path>    file holding the agent token from the console (env
                         ROTA_AGENT_TOKEN_FILE; under systemd, $CREDENTIALS_DIRECTORY/token)
  --token <token>        the token itself (env ROTA_AGENT_TOKEN); other users of the machine
                         can read a command line, so prefer --token-file
  --work-dir <dir>       packages, robots and undelivered results     (env ROTA_WORK_DIR,
                         default ~/.rota-agent)
  --concurrency <n>      robots run at once, 1 to 64                  (default 1)
  --grace-seconds <n>    on SIGTERM, how long running robots may go on (default 60)
  --mode <mode>          service, desktop or console: how it was started (env
                         ROTA_AGENT_MODE, default console)
  --labels <a,b>         labels this machine carries, e.g. excel,sap (env ROTA_AGENT_LABELS);
                         runs needing labels go only to agents carrying them all
  --attended --user <access>
                         an attended agent: it takes only the runs the Rota user <access>
                         starts (the console's "My robots", or rota-agent run) (env
                         ROTA_AGENT_USER with --attended)
  --version              print the agent's version
  --help                 show this help
`;

/** Flag name → option key; every flag takes a value. */
const FLAGS = {
  '--server': 'servers',
  '--token': 'token',
  '--token-file': 'tokenFile',
  '--work-dir': 'workDir',
  '--concurrency': 'concurrency',
  '--grace-seconds': 'graceSeconds',
  '--mode': 'mode',
  '--labels': 'labels',
  '--user': 'user',
} as const;
type OptionKey = (typeof FLAGS)[keyof typeof FLAGS];

const FLAG_OF: Record<OptionKey, string> = {
  servers: '--server (or ROTA_SERVER)',
  token: '--token-file or --token (or ROTA_AGENT_TOKEN)',
  tokenFile: '--token-file',
  workDir: '--work-dir (or ROTA_WORK_DIR)',
  concurrency: '--concurrency',
  graceSeconds: '--grace-seconds',
  mode: '--mode (or ROTA_AGENT_MODE)',
  labels: '--labels (or ROTA_AGENT_LABELS)',
  user: '--user (or ROTA_AGENT_USER)',
};

const integerText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be a whole number from ${min} to ${max}`)
        .max(max, `must be a whole number from ${min} to ${max}`),
    );

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '';
  } catch {
    return false;
  }
}

/** One schema for flags and environment alike: flags win, then env, then defaults. */
const optionsSchema = z.object({
  servers: z
    .string({ error: 'is required' })
    .transform((value) => value.split(',').map((part) => part.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .refine(isHttpUrl, 'must be an http(s) URL such as https://rota.example.com')
            .transform((value) => value.replace(/\/+$/, '')),
        )
        .min(1)
        .max(16, 'takes at most 16 addresses'),
    ),
  token: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  workDir: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .default(path.join(os.homedir(), '.rota-agent'))
    .transform((value) => path.resolve(value)),
  concurrency: integerText(1, 64).default(1),
  graceSeconds: integerText(0, 86_400).default(60),
  mode: z
    .enum(AGENT_MODES, { error: `must be one of ${AGENT_MODES.join(', ')}` })
    .default('console'),
  labels: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter((part) => part !== ''),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .regex(
              LABEL_PATTERN,
              'takes labels of lowercase letters, digits, ".", "_" and "-", 1 to 40 characters',
            ),
        )
        .max(LABELS_MAX, `takes at most ${LABELS_MAX} labels`),
    )
    .optional(),
  // Accesses are stored lower-case; the server finds the user either way.
  attendedUser: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'takes at most 255 characters')
    .optional(),
});

type ReadText = (file: string) => string;

/**
 * The token from its file, trimmed. Only the file's name goes into a problem: its content is a
 * secret, whatever it holds.
 */
function tokenFromFile(
  file: string,
  flag: string,
  readText: ReadText,
  problems: string[],
): string | undefined {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    problems.push(`${flag} ${file} cannot be read (${code})`);
    return undefined;
  }
  const token = text.trim();
  if (token === '') problems.push(`${flag} ${file} is empty`);
  return token === '' ? undefined : token;
}

/**
 * The token: from a flag (the file or the text, not both), else the environment's (the text,
 * then a file), else the credential systemd hands a unit that names one (LoadCredential=token:…).
 */
function resolveToken(
  given: Partial<Record<OptionKey, string>>,
  fromEnv: (name: string) => string | undefined,
  readText: ReadText,
  problems: string[],
): string | undefined {
  if (given.token !== undefined && given.tokenFile !== undefined) {
    problems.push('give --token-file or --token, not both');
    return undefined;
  }
  if (given.token !== undefined) return given.token;
  if (given.tokenFile !== undefined) {
    return tokenFromFile(given.tokenFile, '--token-file', readText, problems);
  }
  const text = fromEnv('ROTA_AGENT_TOKEN');
  if (text !== undefined) return text;
  const file = fromEnv('ROTA_AGENT_TOKEN_FILE');
  if (file !== undefined) return tokenFromFile(file, 'ROTA_AGENT_TOKEN_FILE', readText, problems);
  const credentials = fromEnv('CREDENTIALS_DIRECTORY');
  if (credentials === undefined) return undefined;
  // A credentials directory without a token is some other credential's: "is required" then.
  return tokenFromFile(path.join(credentials, 'token'), 'the credential', readText, []);
}

export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  readText: ReadText = (file) => readFileSync(file, 'utf8'),
): ParsedOptions {
  const problems: string[] = [];
  const given: Partial<Record<OptionKey, string>> = {};
  let attended = false;

  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--attended') {
      attended = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const key = Object.hasOwn(FLAGS, name) ? FLAGS[name as keyof typeof FLAGS] : undefined;
    if (key === undefined) {
      problems.push(
        arg.startsWith('-') ? `unknown option ${name}` : `unexpected argument "${arg}"`,
      );
      continue;
    }
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        problems.push(`${name} needs a value`);
        continue;
      }
      value = next;
      i += 1;
    }
    if (given[key] !== undefined) problems.push(`${name} is given more than once`);
    given[key] = value;
  }

  const fromEnv = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const tokenProblems: string[] = [];
  const token = resolveToken(given, fromEnv, readText, tokenProblems);
  problems.push(...tokenProblems);
  const result = optionsSchema.safeParse({
    servers: given.servers ?? fromEnv('ROTA_SERVER'),
    token,
    workDir: given.workDir ?? fromEnv('ROTA_WORK_DIR'),
    concurrency: given.concurrency,
    graceSeconds: given.graceSeconds,
    mode: given.mode ?? fromEnv('ROTA_AGENT_MODE'),
    labels: given.labels ?? fromEnv('ROTA_AGENT_LABELS'),
    attendedUser: attended ? (given.user ?? fromEnv('ROTA_AGENT_USER')) : undefined,
  });
  if (attended && given.user === undefined && fromEnv('ROTA_AGENT_USER') === undefined) {
    problems.push('--attended needs --user <access> (or ROTA_AGENT_USER): the user it serves');
  }
  if (!attended && given.user !== undefined) {
    problems.push('--user goes with --attended');
  }
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path[0] as OptionKey | 'attendedUser' | undefined;
      // A token file that could not be read has said so already.
      if (key === 'token' && tokenProblems.length > 0) continue;
      const flag = key === 'attendedUser' ? FLAG_OF.user : key && FLAG_OF[key];
      problems.push(flag === undefined ? issue.message : `${flag} ${issue.message}`);
    }
  }
  if (problems.length > 0 || !result.success) return { kind: 'invalid', problems };
  return { kind: 'ok', options: result.data };
}
