import { ALERT_EVENT_TYPES, type AlertEventType, type AlertFeedItem } from '@rota/contract';
import { ACTIVITY_PATH } from '../../activity';
import { AGENTS_PATH } from '../../agents';
import { robotPath } from '../../robots';
import { useAlertsTranslation } from '../i18n';
import type en from '../locales/en.json';

type EventKey = keyof (typeof en)['events'];
type FeedKey = keyof (typeof en)['feed'];
export type EventGroup = 'execution' | 'agent' | 'task' | 'scheduling';

/** The events the form offers, grouped as the multi-select shows them (contract order). */
export const EVENT_GROUPS: ReadonlyArray<{ group: EventGroup; events: AlertEventType[] }> = (
  ['execution', 'agent', 'task', 'scheduling'] as const
).map((group) => ({
  group,
  events: ALERT_EVENT_TYPES.filter((type) => type.startsWith(`${group}.`)),
}));

/** i18next reads dots as nesting: `execution.timeout` is stored as `execution_timeout`. */
function keyOf(type: string): string {
  return type.replace('.', '_');
}

/** An event type's label in the user's language (a type this console does not know: itself). */
export function useEventLabel() {
  const t = useAlertsTranslation();
  return (type: string): string => {
    const key = keyOf(type) as EventKey;
    return t(`events.${key}`, { defaultValue: type });
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function id(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** "Robô Faturas: erro de aplicação", "Agente vm-01 perdido", "Tarefa NF 123 em risco". */
export function useFeedText() {
  const t = useAlertsTranslation();
  const label = useEventLabel();
  return (item: AlertFeedItem): string => {
    const robot =
      item.robot_name ??
      (item.rota_robots_id !== null
        ? t('feed.unknownRobot', { id: item.rota_robots_id })
        : undefined);
    const key = keyOf(item.type) as FeedKey;
    if (item.type.startsWith('execution.')) {
      const event = t(`feed.${key}`, { defaultValue: label(item.type) });
      return robot ? t('feed.robotEvent', { robot, event }) : event;
    }
    const name =
      text(item.data.name) ??
      (id(item.data.rota_nodes_id) ? `#${String(item.data.rota_nodes_id)}` : '');
    const taskLabel =
      text(item.data.label) ??
      (id(item.data.rota_tasks_id) ? `#${String(item.data.rota_tasks_id)}` : '');
    return t(`feed.${key}`, {
      defaultValue: label(item.type),
      name,
      label: taskLabel,
      robot: robot ?? '',
    });
  };
}

/** The page an entry opens: its execution, the agents, the tasks, the schedulings or its robot. */
export function feedLink(item: AlertFeedItem): string | undefined {
  const execution = id(item.data.execution_id);
  if (item.type.startsWith('execution.') && execution) return `${ACTIVITY_PATH}/${execution}`;
  if (item.type.startsWith('agent.')) return AGENTS_PATH;
  if (item.type.startsWith('task.')) return '/task';
  if (item.type.startsWith('scheduling.')) return '/scheduling';
  return item.rota_robots_id !== null ? robotPath(item.rota_robots_id) : undefined;
}
