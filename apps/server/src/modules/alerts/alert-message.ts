import type { Language } from '@rota/contract';

/** One delivery as every channel writes it: the (latest) event, its count and its page. */
export interface AlertMessage {
  delivery_uid: string;
  event_uid: string;
  type: string;
  occurred_at: string;
  rota_clients_id: number;
  rota_robots_id: number | null;
  robot_name: string | null;
  data: Record<string, unknown>;
  count: number;
  /** The console page it is about (absolute). */
  url: string;
  language: Language;
}

const TITLES: Record<Language, Record<string, string>> = {
  en: {
    'execution.application_error': 'application error',
    'execution.business_error': 'business error',
    'execution.timeout': 'timed out',
    'execution.stalled': 'run stalled',
    'agent.lost': 'agent lost',
    'agent.back': 'agent back',
    'task.at_risk': 'task at risk',
    'task.breached': 'task past its deadline',
    'scheduling.missed': 'scheduled run missed',
    'alert.test': 'test alert',
  },
  pt: {
    'execution.application_error': 'erro de aplicação',
    'execution.business_error': 'erro de negócio',
    'execution.timeout': 'tempo esgotado',
    'execution.stalled': 'execução parada',
    'agent.lost': 'agente perdido',
    'agent.back': 'agente de volta',
    'task.at_risk': 'tarefa em risco',
    'task.breached': 'tarefa com prazo vencido',
    'scheduling.missed': 'execução agendada perdida',
    'alert.test': 'alerta de teste',
  },
};

const WORDS = {
  en: {
    robot: 'Robot',
    agent: 'Agent',
    message: 'Message',
    when: 'When',
    count: 'Occurrences',
    open: {
      execution: 'Open execution',
      agents: 'Open agents',
      tasks: 'Open tasks',
      scheduling: 'Open schedulings',
      console: 'Open Rota',
    },
    test: 'This is a test sent from Rota: the channel works.',
  },
  pt: {
    robot: 'Robô',
    agent: 'Agente',
    message: 'Mensagem',
    when: 'Quando',
    count: 'Ocorrências',
    open: {
      execution: 'Abrir execução',
      agents: 'Abrir agentes',
      tasks: 'Abrir tarefas',
      scheduling: 'Abrir agendamentos',
      console: 'Abrir o Rota',
    },
    test: 'Este é um teste enviado pelo Rota: o canal funciona.',
  },
} as const;

/** The console page an event is about, relative to the public URL. */
export function pathOf(type: string, data: Record<string, unknown>): string {
  if (type.startsWith('execution.') && typeof data.execution_id === 'number') {
    return `/activity/${data.execution_id}`;
  }
  if (type.startsWith('agent.')) return '/node';
  if (type.startsWith('task.')) return '/task';
  if (type === 'scheduling.missed') return '/scheduling';
  return '/';
}

function linkKind(type: string): keyof (typeof WORDS)['en']['open'] {
  if (type.startsWith('execution.')) return 'execution';
  if (type.startsWith('agent.')) return 'agents';
  if (type.startsWith('task.')) return 'tasks';
  if (type === 'scheduling.missed') return 'scheduling';
  return 'console';
}

export const titleOf = (message: AlertMessage) =>
  TITLES[message.language][message.type] ?? message.type;

/** "Robô Faturas: erro de aplicação (3×)". */
export function headlineOf(message: AlertMessage): string {
  const w = WORDS[message.language];
  const subject = message.type.startsWith('agent.')
    ? `${w.agent} ${String(message.data.name ?? '')}`.trim()
    : message.robot_name
      ? `${w.robot} ${message.robot_name}`
      : null;
  const times = message.count > 1 ? ` (${message.count}×)` : '';
  return `${subject ? `${subject}: ` : ''}${titleOf(message)}${times}`;
}

export const linkLabelOf = (message: AlertMessage) =>
  WORDS[message.language].open[linkKind(message.type)];

/** The lines under the headline: message, when, count, link (plain text). */
export function detailLinesOf(message: AlertMessage): string[] {
  const w = WORDS[message.language];
  const lines: string[] = [];
  if (message.type === 'alert.test') lines.push(w.test);
  const text =
    typeof message.data.message === 'string'
      ? message.data.message
      : typeof message.data.label === 'string'
        ? message.data.label
        : null;
  if (text) lines.push(`${w.message}: ${text.slice(0, 1000)}`);
  lines.push(`${w.when}: ${message.occurred_at}`);
  if (message.count > 1) lines.push(`${w.count}: ${message.count}`);
  return lines;
}
