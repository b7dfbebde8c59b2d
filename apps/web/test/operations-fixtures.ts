import { screen } from '@testing-library/react';
import type { Agent, Language, Parameter, Scheduling, Vm } from '@rota/contract';
import { setToken } from '../src/lib/session';
import { createLiveServer, makeDashboard } from './activity-fixtures';
import { makeUser } from './fixtures';
import { mockFetch, type MockCall, type MockOptions, type MockReply } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

/** Fixtures and a page opener for the VMs, agents, schedulings and parameters screens. */

const STAMP = '2024-05-01T12:00:00.000Z';

export function makeVm(overrides: Partial<Vm> = {}): Vm {
  return {
    rota_vms_id: 1,
    name: 'vm-financeiro',
    hostname: 'rpa-win-01',
    label: 'financeiro',
    os: 'Windows Server 2022',
    description: null,
    connectivity: 'active',
    agents: 2,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    rota_nodes_id: 1,
    name: 'agente-01',
    rota_vms_id: 1,
    rota_vms_name: 'vm-financeiro',
    connectivity: 'active',
    last_seen_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    connection_lost_at: null,
    version: '3.0.1',
    hostname: 'rpa-win-01',
    facts: null,
    low_disk: false,
    update_available: false,
    update_requested: false,
    labels: [],
    effective_labels: [],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeScheduling(overrides: Partial<Scheduling> = {}): Scheduling {
  return {
    rota_schedulings_id: 1,
    name: 'Faturas de hora em hora',
    rota_robots_id: 1,
    rota_robots_name: 'Faturas',
    trigger_type: 'interval',
    interval_minutes: 60,
    cron: null,
    time_zone: null,
    missed_runs: 'run_once',
    rota_calendars_id: null,
    min_pending: 1,
    max_concurrent: 1,
    next_run_at: null,
    timeout_minutes: 30,
    retries: 2,
    priority: 50,
    sleep: 0,
    active: true,
    vms: [{ rota_vms_id: 1, name: 'vm-financeiro' }],
    labels: [],
    deleted_at: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeParameter(overrides: Partial<Parameter> = {}): Parameter {
  return {
    rota_parameters_id: 1,
    name: 'ERP_URL',
    value: 'https://erp.example.com',
    has_password: false,
    description: 'Endereço do ERP',
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function listOf<T>(data: T[]) {
  return { data, meta: { total: data.length, current_page: 1, per_page: 20 } };
}

type Handler = (call: MockCall) => MockReply | Promise<MockReply> | undefined;

/**
 * Signs in with `permissions`, answers the API with `handler` (which returns undefined for calls
 * it does not know: the test then fails on them), and renders the app at `path`.
 */
/** Lists answer empty, the dashboard its fixture, the live stream stays open. */
export function quietApi() {
  const live = createLiveServer();
  return ({ url }: MockCall): MockReply | undefined => {
    if (url.endsWith('/dashboard/api/v1/index')) {
      return { status: 200, body: { data: makeDashboard() } };
    }
    if (url.endsWith('/events/api/v1/stream')) return live.reply();
    if (url.endsWith('/index')) return { status: 200, body: listOf([]) };
    return undefined;
  };
}

export async function openPage(
  path: string,
  heading: RegExp,
  permissions: string[],
  handler: Handler,
  lang: Language = 'pt',
  mockOptions: MockOptions = {},
) {
  await resetEnvironment(lang);
  setToken('token');
  const { calls } = mockFetch(async (call) => {
    if (call.url.endsWith('/user/api/auth/v1/me')) {
      return { status: 200, body: makeUser({ permissions }) };
    }
    const reply = await handler(call);
    if (!reply) throw new Error(`unexpected API call: ${call.method} ${call.url}`);
    return reply;
  }, mockOptions);
  const view = renderWithRouter({ path });
  // The first render loads the shell's and the page's chunks.
  await screen.findByRole('heading', { name: heading, level: 1 }, { timeout: 5000 });
  return { ...view, calls };
}

export const callsTo = (calls: MockCall[], suffix: string) =>
  calls.filter((call) => call.url.endsWith(suffix));

/** Opens a row's action menu (by the row's label, pt) and picks `action`. */
export async function openRowAction(
  user: { click: (e: Element) => Promise<void> },
  row: string,
  action: string,
) {
  await user.click(await screen.findByRole('button', { name: `Ações de ${row}` }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}
