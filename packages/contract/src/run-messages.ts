import { z } from 'zod';
import type { Language } from './constants.js';

/**
 * What the server or the agent writes into a run (its result message, its system log lines), as a
 * code and values, so the console says it in the user's language. The English text is
 * still stored and answered beside the code: older agents send only text, and the API's readers
 * keep the words they had. Templates are functions so plurals are right in both languages.
 */
export type RunMessageParams = Record<string, string | number>;

type Template = (p: RunMessageParams) => string;

/** "1 minute" / "2 minutes": a count with its noun in the right number. */
const count = (n: unknown, one: string, many: string) =>
  `${String(n)} ${Number(n) === 1 ? one : many}`;

/** A time limit in seconds: whole minutes said as minutes, anything else in seconds. */
const duration = (lang: Language, p: RunMessageParams): string => {
  const seconds = Number(p.seconds);
  const minutes = p.minutes !== undefined ? Number(p.minutes) : seconds / 60;
  if (p.minutes !== undefined || (Number.isInteger(minutes) && minutes > 0)) {
    return lang === 'pt'
      ? count(minutes, 'minuto', 'minutos')
      : count(minutes, 'minute', 'minutes');
  }
  return `${seconds} s`;
};

/** Why the agent ends a run, as said before ": stopping" / ": killing the process tree". */
const KILL_REASONS: Record<string, { en: Template; pt: Template }> = {
  timeout: {
    en: (p) => `timed out after ${duration('en', p)}`,
    pt: (p) => `tempo esgotado após ${duration('pt', p)}`,
  },
  cancelled: { en: () => 'cancel requested', pt: () => 'cancelamento solicitado' },
  stopped: { en: () => 'the agent is stopping', pt: () => 'o agente está parando' },
  fenced: {
    en: () => 'the server could not be reached to renew the lease',
    pt: () => 'não foi possível falar com o servidor para renovar a concessão',
  },
};
const reasonOf = (lang: Language, p: RunMessageParams) =>
  (KILL_REASONS[String(p.reason)] ?? KILL_REASONS.cancelled!)[lang](p);

const exitOrSignal = (lang: Language, p: RunMessageParams) =>
  p.signal !== undefined
    ? lang === 'pt'
      ? `encerrado pelo sinal ${p.signal}`
      : `killed by signal ${p.signal}`
    : lang === 'pt'
      ? `código de saída ${p.code}`
      : `exit code ${p.code}`;

export const RUN_MESSAGES = {
  // The server's own words.
  agent_lost: { en: () => 'agent lost', pt: () => 'agente perdido' },
  agent_stopped: { en: () => 'agent stopped', pt: () => 'agente parado' },
  stalled: { en: () => 'stalled', pt: () => 'parado sem atividade' },
  ended_by: {
    en: (p) => `ended by ${p.who}`,
    pt: (p) => `encerrada por ${p.who}`,
  },
  // The agent's results.
  timed_out: {
    en: (p) => `timed out after ${duration('en', p)}`,
    pt: (p) => `tempo esgotado após ${duration('pt', p)}`,
  },
  cancelled: { en: () => 'cancelled', pt: () => 'cancelada' },
  stopped: { en: () => 'stopped', pt: () => 'parada' },
  killed_after_grace: {
    en: (p) => `killed after ${p.seconds} s`,
    pt: (p) => `encerrada à força após ${p.seconds} s`,
  },
  lease_lost: {
    en: () => 'lease lost: stopped by the agent',
    pt: () => 'concessão perdida: parada pelo agente',
  },
  failed: { en: () => 'failed', pt: () => 'falhou' },
  /** {code} or {signal}. */
  exit_status: { en: (p) => exitOrSignal('en', p), pt: (p) => exitOrSignal('pt', p) },
  // The agent's system log lines.
  run_failed: {
    en: (p) => `run failed: ${p.reason}`,
    pt: (p) => `a execução falhou: ${p.reason}`,
  },
  downloading_package: {
    en: (p) => `downloading package ${p.version} (${count(p.size, 'byte', 'bytes')}, ${p.format})`,
    pt: (p) => `baixando o pacote ${p.version} (${count(p.size, 'byte', 'bytes')}, ${p.format})`,
  },
  package_unpacked: {
    en: (p) => `unpacked package ${p.version} into ${p.dir}`,
    pt: (p) => `pacote ${p.version} descompactado em ${p.dir}`,
  },
  package_already_unpacked: {
    en: (p) => `package ${p.version} already unpacked in ${p.dir}`,
    pt: (p) => `pacote ${p.version} já descompactado em ${p.dir}`,
  },
  workdir_missing: {
    en: (p) => `the working directory ${p.dir} does not exist`,
    pt: (p) => `o diretório de trabalho ${p.dir} não existe`,
  },
  starting: {
    en: (p) => `starting \`${p.executor}\` in ${p.dir}`,
    pt: (p) => `iniciando \`${p.executor}\` em ${p.dir}`,
  },
  could_not_start: {
    en: (p) => `could not start \`${p.executor}\`: ${p.reason}`,
    pt: (p) => `não foi possível iniciar \`${p.executor}\`: ${p.reason}`,
  },
  /** {code} or {signal}. */
  process_ended: {
    en: (p) =>
      p.signal !== undefined
        ? `process ended by signal ${p.signal}`
        : `process exited with code ${p.code}`,
    pt: (p) =>
      p.signal !== undefined
        ? `processo encerrado pelo sinal ${p.signal}`
        : `processo terminou com código ${p.code}`,
  },
  /** {reason: timeout|cancelled|stopped|fenced, seconds?}: the agent ends the run. */
  kill_requested: {
    en: (p) => `${reasonOf('en', p)}: stopping`,
    pt: (p) => `${reasonOf('pt', p)}: parando`,
  },
  killing_tree: {
    en: (p) => `${reasonOf('en', p)}: killing the process tree`,
    pt: (p) => `${reasonOf('pt', p)}: encerrando a árvore de processos`,
  },
  stop_requested: {
    en: (p) => `stop requested: SIGTERM, then the kill after ${p.seconds} s`,
    pt: (p) => `parada solicitada: SIGTERM e, após ${p.seconds} s, o encerramento forçado`,
  },
  cancel_requested: {
    en: () => 'cancel requested: killing the process tree now',
    pt: () => 'cancelamento solicitado: encerrando a árvore de processos agora',
  },
  grace_exceeded: {
    en: (p) => `the robot outlived its ${p.seconds} s grace: tree killed`,
    pt: (p) => `o robô passou dos ${p.seconds} s de tolerância: árvore de processos encerrada`,
  },
  lines_refused: {
    en: (p) =>
      `${count(p.count, 'log line', 'log lines')} dropped: the server refused them (${p.why})`,
    pt: (p) =>
      `${count(p.count, 'linha de log descartada', 'linhas de log descartadas')}: o servidor as recusou (${p.why})`,
  },
  lines_dropped: {
    en: (p) =>
      `${count(p.count, 'log line', 'log lines')} dropped: the server could not take them in time`,
    pt: (p) =>
      `${count(p.count, 'linha de log descartada', 'linhas de log descartadas')}: o servidor não as recebeu a tempo`,
  },
} satisfies Record<string, Record<Language, Template>>;

export type RunMessageCode = keyof typeof RUN_MESSAGES;

export function isRunMessageCode(value: unknown): value is RunMessageCode {
  return typeof value === 'string' && Object.hasOwn(RUN_MESSAGES, value);
}

/** A run message's code and values; absent or unknown (an older agent, a newer server): null. */
export const runMessageCodeSchema = z.string().max(64).nullish();
export const runMessageParamsSchema = z
  .record(z.string().max(64), z.union([z.string().max(2000), z.number()]))
  .nullish();

/**
 * The message in `lang`; `text` (the English stored beside it) when the code is unknown to this
 * build, or absent (an older agent): then the text is shown as is.
 */
export function renderRunMessage(
  lang: Language,
  code: string | null | undefined,
  params: RunMessageParams | null | undefined,
  text: string | null = null,
): string | null {
  if (!isRunMessageCode(code)) return text;
  return (RUN_MESSAGES[code][lang] as Template)(params ?? {});
}

/** The English text of a code, the one stored in `message`/`line` for the API's readers. */
export function runMessageText(code: RunMessageCode, params: RunMessageParams = {}): string {
  return (RUN_MESSAGES[code].en as Template)(params);
}
