import {
  renderRunMessage,
  type Execution,
  type ExecutionStatus,
  type ExecutionTrigger,
  type Language,
} from '@rota/contract';

/**
 * The activity export as a spreadsheet in the user's language opens it: pt-BR
 * spreadsheets read `;` as the delimiter (`,` is their decimal mark), a UTF-8 BOM makes them read
 * accents right, headers and statuses are words, dates are in the user's zone and the language's
 * format (as the console's tables show them, with seconds).
 */
export const CSV_COLUMNS = [
  'execution_id',
  'rota_robots_name',
  'rota_executor_name',
  'rota_schedulings_name',
  'rota_vms_name',
  'status',
  'trigger',
  'attempts',
  'queued_at',
  'start_date',
  'end_date',
  'duration_ms',
  'exit_code',
  'message',
] as const satisfies readonly (keyof Execution)[];

type Column = (typeof CSV_COLUMNS)[number];

type Labels = {
  columns: Record<Column, string>;
  status: Record<ExecutionStatus, string>;
  trigger: Record<ExecutionTrigger, string>;
};

/** The console's own words for these (apps/web features/activity locales). */
const LABELS: Record<Language, Labels> = {
  pt: {
    columns: {
      execution_id: 'ID da execução',
      rota_robots_name: 'Nome do processo',
      rota_executor_name: 'Executor',
      rota_schedulings_name: 'Agendamento',
      rota_vms_name: 'VM',
      status: 'Status',
      trigger: 'Origem',
      attempts: 'Tentativas',
      queued_at: 'Na fila em',
      start_date: 'Início',
      end_date: 'Fim',
      duration_ms: 'Duração (ms)',
      exit_code: 'Código de saída',
      message: 'Mensagem',
    },
    status: {
      queued: 'Na fila',
      processing: 'Em processamento',
      success: 'Sucesso',
      business_error: 'Erro de negócio',
      application_error: 'Erro de aplicação',
      timeout: 'Tempo esgotado',
      cancelled: 'Cancelada',
    },
    trigger: { schedule: 'Agendamento', manual: 'Manual', api: 'Gatilho de API' },
  },
  en: {
    columns: {
      execution_id: 'Execution ID',
      rota_robots_name: 'Process name',
      rota_executor_name: 'Executor',
      rota_schedulings_name: 'Scheduling',
      rota_vms_name: 'VM',
      status: 'Status',
      trigger: 'Origin',
      attempts: 'Attempts',
      queued_at: 'Queued at',
      start_date: 'Start',
      end_date: 'End',
      duration_ms: 'Duration (ms)',
      exit_code: 'Exit code',
      message: 'Message',
    },
    status: {
      queued: 'Queued',
      processing: 'Processing',
      success: 'Success',
      business_error: 'Business error',
      application_error: 'Application error',
      timeout: 'Timed out',
      cancelled: 'Cancelled',
    },
    trigger: { schedule: 'Scheduling', manual: 'Manual', api: 'API trigger' },
  },
};

/** Put first in the file so spreadsheets read it as UTF-8. */
export const CSV_BOM = '\uFEFF';

export const csvDelimiter = (lang: Language) => (lang === 'pt' ? ';' : ',');

/** RFC 4180 field; a leading =, +, - or @ is defused so a spreadsheet never runs it. */
function csvField(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return text.includes(delimiter) || /["\r\n]/.test(text)
    ? `"${text.replaceAll('"', '""')}"`
    : text;
}

export type CsvStyle = { lang: Language; timeZone: string };

/** Writes header and rows in one language and zone; its date formatter is built once. */
export function csvWriter({ lang, timeZone }: CsvStyle) {
  const labels = LABELS[lang];
  const delimiter = csvDelimiter(lang);
  const parts = new Intl.DateTimeFormat(lang === 'pt' ? 'pt-BR' : 'en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: lang === 'pt' ? 'h23' : 'h12',
  });
  /** pt `24/11/2026 23:59:05`, en `11/24/2026 11:59:05 PM`. */
  const date = (iso: string | null) => {
    if (!iso) return '';
    const p = Object.fromEntries(parts.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
    const time = `${p.hour}:${p.minute}:${p.second}`;
    return lang === 'pt'
      ? `${p.day}/${p.month}/${p.year} ${time}`
      : `${p.month}/${p.day}/${p.year} ${time} ${p.dayPeriod}`;
  };
  const cell = (execution: Execution, column: Column): unknown => {
    switch (column) {
      case 'status':
        return labels.status[execution.status];
      case 'trigger':
        return labels.trigger[execution.trigger];
      case 'queued_at':
      case 'start_date':
      case 'end_date':
        return date(execution[column]);
      case 'message':
        // The run's own message in the reader's language; an older agent's text as it came.
        return renderRunMessage(
          lang,
          execution.message_code,
          execution.message_params,
          execution.message,
        );
      default:
        return execution[column];
    }
  };
  return {
    header: () =>
      `${CSV_BOM}${CSV_COLUMNS.map((c) => csvField(labels.columns[c], delimiter)).join(delimiter)}\r\n`,
    line: (execution: Execution) =>
      `${CSV_COLUMNS.map((c) => csvField(cell(execution, c), delimiter)).join(delimiter)}\r\n`,
  };
}
