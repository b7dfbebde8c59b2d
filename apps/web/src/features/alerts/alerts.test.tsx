// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert, AlertDelivery, AlertFeed, AlertFeedItem, Language } from '@rota/contract';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const ALL = ['USUARIOS.LIST', 'USUARIOS.CREATE', 'USUARIOS.UPDATE', 'USUARIOS.DELETE'];
const NOW = new Date('2026-11-24T12:00:00.000Z');
const STAMP = '2026-11-01T12:00:00.000Z';

function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    rota_alerts_id: 1,
    name: 'Falhas do financeiro',
    active: true,
    events: ['execution.application_error', 'execution.timeout'],
    rota_robots_ids: [],
    robots: [],
    channel: { type: 'email', to: ['ops@example.com', 'ana@example.com'] },
    language: 'pt',
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

const emailAlert = makeAlert();
const webhookAlert = makeAlert({
  rota_alerts_id: 2,
  name: 'Chamados',
  active: false,
  events: ['agent.lost', 'agent.back', 'task.at_risk', 'task.breached', 'scheduling.missed'],
  rota_robots_ids: [10],
  robots: [{ rota_robots_id: 10, name: 'Faturas' }],
  channel: { type: 'webhook', url: 'https://hooks.example.com/rota', secret_set: true },
});
const slackAlert = makeAlert({
  rota_alerts_id: 3,
  name: 'Canal #rpa',
  channel: { type: 'slack', url_set: true },
});

function makeDelivery(overrides: Partial<AlertDelivery> = {}): AlertDelivery {
  return {
    rota_alert_deliveries_id: 1,
    delivery_uid: 'd-1',
    rota_alerts_id: 2,
    event_type: 'execution.application_error',
    rota_robots_id: 10,
    robot_name: 'Faturas',
    count: 1,
    status: 'delivered',
    attempts: 1,
    response_code: 200,
    last_error: null,
    next_attempt_at: null,
    delivered_at: '2026-11-24T11:50:00.000Z',
    created_at: '2026-11-24T11:50:00.000Z',
    ...overrides,
  };
}

const deliveries = [
  makeDelivery({
    rota_alert_deliveries_id: 3,
    status: 'pending',
    count: 3,
    attempts: 2,
    response_code: 500,
    last_error: 'not_delivered',
    next_attempt_at: '2026-11-24T12:00:30.000Z',
    delivered_at: null,
    created_at: '2026-11-24T11:58:00.000Z',
  }),
  makeDelivery({
    rota_alert_deliveries_id: 2,
    status: 'failed',
    event_type: 'agent.lost',
    rota_robots_id: null,
    robot_name: null,
    attempts: 9,
    response_code: null,
    last_error: 'destination_not_allowed',
    delivered_at: null,
  }),
  makeDelivery(),
];

function feedItem(overrides: Partial<AlertFeedItem>): AlertFeedItem {
  return {
    rota_alert_events_id: 1,
    event_uid: 'e-1',
    type: 'execution.application_error',
    occurred_at: '2026-11-24T11:55:00.000Z',
    rota_robots_id: 10,
    robot_name: 'Faturas',
    data: { execution_id: 77 },
    unread: false,
    ...overrides,
  };
}

const FEED: AlertFeed = {
  unread: 120,
  data: [
    feedItem({ rota_alert_events_id: 9, unread: true }),
    feedItem({
      rota_alert_events_id: 8,
      type: 'agent.lost',
      rota_robots_id: null,
      robot_name: null,
      data: { rota_nodes_id: 4, name: 'agente-01' },
      unread: true,
      occurred_at: '2026-11-24T10:00:00.000Z',
    }),
    feedItem({
      rota_alert_events_id: 7,
      type: 'task.at_risk',
      data: { rota_tasks_id: 5, label: 'NF 123' },
      occurred_at: '2026-11-23T12:00:00.000Z',
    }),
  ],
};

type Options = {
  lang?: Language;
  feed?: AlertFeed;
  reply?: (call: MockCall) => MockReply | undefined;
};

async function openAlerts(permissions: string[] = ALL, options: Options = {}) {
  let feed = options.feed ?? { unread: 0, data: [] };
  return openPage(
    '/alert',
    /^(Alertas|Alerts)$/,
    permissions,
    (call) => {
      const custom = options.reply?.(call);
      if (custom) return custom;
      if (call.url.endsWith('/rota/alert/api/v1/index')) {
        return { status: 200, body: listOf([emailAlert, webhookAlert, slackAlert]) };
      }
      if (call.url.endsWith('/rota/robot/api/v1/index')) {
        return {
          status: 200,
          body: listOf([
            { rota_robots_id: 10, name: 'Faturas' },
            { rota_robots_id: 11, name: 'Boletos' },
          ]),
        };
      }
      if (call.url.endsWith('/rota/alert/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: emailAlert } };
      }
      if (call.url.endsWith('/rota/alert/api/v1/update')) return { status: 204 };
      if (call.url.endsWith('/rota/alert/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      if (call.url.endsWith('/rota/alert/delivery/api/v1/index')) {
        return { status: 200, body: listOf(deliveries) };
      }
      if (call.url.endsWith('/rota/alert/feed/api/v1/index')) return { status: 200, body: feed };
      if (call.url.endsWith('/rota/alert/feed/api/v1/seen')) {
        feed = { unread: 0, data: feed.data.map((item) => ({ ...item, unread: false })) };
        return { status: 204 };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('/alert', { timeout: 30_000 }, () => {
  it('lists the rules with their channel, events, robots and active switch', async () => {
    const { calls } = await openAlerts();
    const table = await screen.findByRole('table', { name: 'Alertas' });
    expect(callsTo(calls, '/alert/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('E-mail')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('ops@example.com, ana@example.com')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Erro de aplicação')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Tempo esgotado')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Todos os robôs')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByRole('switch', { name: 'Ativo: Falhas do financeiro' }),
    ).toBeChecked();
    // Five events: three badges and "+2".
    expect(within(rows[2]!).getByText('https://hooks.example.com/rota')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Agente perdido')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('+2')).toBeInTheDocument();
    expect(await within(rows[2]!).findByText('Faturas')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Slack')).toBeInTheDocument();
  });

  it("names a rule's robots as the server answers them, beyond the console's first page of robots", async () => {
    const wide = makeAlert({
      rota_alerts_id: 4,
      name: 'Lote grande',
      rota_robots_ids: [150, 999],
      // 999: deleted since, or outside the user's teams: the server leaves it out.
      robots: [{ rota_robots_id: 150, name: 'Zeta 150' }],
    });
    const { user, calls } = await openAlerts(ALL, {
      reply: (call) =>
        call.url.endsWith('/rota/alert/api/v1/index')
          ? { status: 200, body: listOf([wide]) }
          : undefined,
    });
    const table = await screen.findByRole('table', { name: 'Alertas' });
    expect(await within(table).findByText('Zeta 150, #999')).toBeInTheDocument();
    // The names come with the rules: the list does not read the robots itself.
    expect(callsTo(calls, '/robot/api/v1/index')).toHaveLength(0);

    // Editing it: the chosen robots keep their names though the first options do not hold them.
    await openRowAction(user, 'Lote grande', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar alerta' });
    expect((await within(drawer).findAllByText('Zeta 150')).length).toBeGreaterThan(0);
    expect(within(drawer).queryAllByText('#150')).toHaveLength(0);
    expect(within(drawer).getAllByText('#999').length).toBeGreaterThan(0);
  });

  it('filters by channel and status, and toggles a rule from its row', async () => {
    const { user, calls } = await openAlerts();
    await screen.findByRole('table', { name: 'Alertas' });
    await user.click(screen.getByRole('combobox', { name: 'Canal' }));
    await user.click(await screen.findByRole('option', { name: 'Webhook' }));
    await waitFor(() =>
      expect(callsTo(calls, '/alert/api/v1/index').at(-1)?.body).toMatchObject({
        channel_type: 'webhook',
      }),
    );
    await user.click(screen.getByRole('combobox', { name: 'Situação' }));
    await user.click(await screen.findByRole('option', { name: 'Inativos' }));
    await waitFor(() =>
      expect(callsTo(calls, '/alert/api/v1/index').at(-1)?.body).toMatchObject({
        channel_type: 'webhook',
        active: false,
      }),
    );
    await user.click(screen.getByRole('switch', { name: 'Ativo: Chamados' }));
    await waitFor(() => expect(callsTo(calls, '/alert/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/alert/api/v1/update')[0]?.body).toEqual({ id: 2, active: true });
  });

  it('finds a robot beyond the first answer by searching on the server', async () => {
    const { user, calls } = await openAlerts(ALL, {
      reply: (call) => {
        const body = call.body as { search?: string } | undefined;
        if (call.url.endsWith('/rota/robot/api/v1/index') && body?.search === 'Zeta') {
          return { status: 200, body: listOf([{ rota_robots_id: 150, name: 'Zeta 150' }]) };
        }
        return undefined;
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Novo alerta' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo alerta' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Zeta caiu');
    await user.click(within(drawer).getByRole('combobox', { name: /^Eventos/ }));
    await user.click(await screen.findByRole('option', { name: 'Erro de aplicação' }));
    await user.type(within(drawer).getByRole('combobox', { name: /^Robôs/ }), 'Zeta');
    await user.click(await screen.findByRole('option', { name: 'Zeta 150' }));
    expect(
      callsTo(calls, '/robot/api/v1/index').some(
        (call) => (call.body as { search?: string }).search === 'Zeta',
      ),
    ).toBe(true);
    await user.click(within(drawer).getByRole('radio', { name: 'Webhook' }));
    await user.type(
      within(drawer).getByRole('textbox', { name: /^URL/ }),
      'http://127.0.0.1:9999/hook',
    );
    await user.click(within(drawer).getByRole('button', { name: 'Gerar' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar alerta' }));
    await waitFor(() => expect(callsTo(calls, '/alert/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/alert/api/v1/create')[0]?.body).toMatchObject({
      name: 'Zeta caiu',
      rota_robots_ids: [150],
    });
  });

  it('creates a webhook alert: grouped events, robots, a generated secret', async () => {
    const { user, calls } = await openAlerts();
    await user.click(await screen.findByRole('button', { name: 'Novo alerta' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo alerta' });
    // Nothing chosen: the contract's messages under the fields.
    await user.click(within(drawer).getByRole('button', { name: 'Criar alerta' }));
    expect(await within(drawer).findByText('Escolha pelo menos um evento')).toBeInTheDocument();
    expect(within(drawer).getByText('E-mail obrigatório')).toBeInTheDocument();

    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Faturas caiu');
    await user.click(within(drawer).getByRole('combobox', { name: /^Eventos/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByText('Execuções')).toBeInTheDocument();
    expect(within(listbox).getByText('Agentes')).toBeInTheDocument();
    await user.click(within(listbox).getByRole('option', { name: 'Erro de aplicação' }));
    await user.click(within(drawer).getByRole('combobox', { name: /^Robôs/ }));
    await user.click(await screen.findByRole('option', { name: 'Faturas' }));

    await user.click(within(drawer).getByRole('radio', { name: 'Webhook' }));
    expect(within(drawer).queryByRole('combobox', { name: /^Endereços/ })).not.toBeInTheDocument();
    await user.type(
      within(drawer).getByRole('textbox', { name: /^URL/ }),
      'http://127.0.0.1:9999/hook',
    );
    const secret = within(drawer).getByRole('textbox', { name: /^Segredo/ });
    await user.click(within(drawer).getByRole('button', { name: 'Gerar' }));
    expect((secret as HTMLInputElement).value).toMatch(/^[0-9a-f]{64}$/);

    await user.click(within(drawer).getByRole('button', { name: 'Criar alerta' }));
    await waitFor(() => expect(callsTo(calls, '/alert/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/alert/api/v1/create')[0]?.body).toEqual({
      name: 'Faturas caiu',
      active: true,
      events: ['execution.application_error'],
      rota_robots_ids: [10],
      language: 'pt',
      channel: {
        type: 'webhook',
        url: 'http://127.0.0.1:9999/hook',
        secret: (secret as HTMLInputElement).value,
      },
    });
  });

  it('keeps a stored secret left blank on edit, and asks for one when the type changes', async () => {
    const { user, calls } = await openAlerts(ALL, {
      reply: (call) =>
        call.url.endsWith('/rota/alert/api/v1/update') &&
        (call.body as { channel?: { type: string } }).channel?.type === 'teams'
          ? {
              status: 400,
              body: {
                message: 'Erro de validação',
                errors: [{ field: 'channel.url', message: 'destination_not_allowed' }],
              },
            }
          : undefined,
    });
    await openRowAction(user, 'Chamados', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar alerta' });
    expect(within(drawer).getByText('Deixe em branco para manter o segredo atual.')).toBeVisible();
    expect(within(drawer).getByRole('textbox', { name: /^Segredo/ })).toHaveValue('');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/alert/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/alert/api/v1/update')[0]?.body).toEqual({
      id: 2,
      name: 'Chamados',
      active: false,
      events: ['agent.lost', 'agent.back', 'task.at_risk', 'task.breached', 'scheduling.missed'],
      rota_robots_ids: [10],
      language: 'pt',
      channel: { type: 'webhook', url: 'https://hooks.example.com/rota' },
    });

    // Another type: nothing stored to keep, so its URL is required here.
    await waitFor(() => expect(drawer).not.toBeInTheDocument());
    await openRowAction(user, 'Chamados', 'Editar');
    const again = await screen.findByRole('dialog', { name: 'Editar alerta' });
    await user.click(within(again).getByRole('radio', { name: 'Teams' }));
    const url = within(again).getByRole('textbox', { name: /^URL do webhook de entrada/ });
    expect(within(again).queryByText('Deixe em branco para manter a URL atual.')).toBeNull();
    await user.click(within(again).getByRole('button', { name: 'Salvar' }));
    expect(await within(again).findByText('Deve ser um endereço http(s)')).toBeInTheDocument();
    expect(callsTo(calls, '/alert/api/v1/update')).toHaveLength(1);
    // The server's field error lands under the field.
    await user.type(url, 'https://169.254.169.254/x');
    await user.click(within(again).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/alert/api/v1/update')).toHaveLength(2));
    expect(callsTo(calls, '/alert/api/v1/update')[1]?.body).toMatchObject({
      channel: { type: 'teams', url: 'https://169.254.169.254/x' },
    });
    expect(
      await within(again).findByText(/^Destino não permitido: endereços internos/),
    ).toBeInTheDocument();
  });

  it('shows the delivery log and sends a test', async () => {
    const { user, calls } = await openAlerts(ALL, {
      reply: (call) =>
        call.url.endsWith('/rota/alert/api/v1/test')
          ? {
              status: 200,
              body: {
                message: 'Teste enviado',
                data: makeDelivery({ rota_alert_deliveries_id: 4, event_type: 'alert.test' }),
              },
            }
          : undefined,
    });
    await openRowAction(user, 'Chamados', 'Entregas');
    const drawer = await screen.findByRole('dialog', { name: 'Entregas de “Chamados”' });
    const table = await within(drawer).findByRole('table', { name: 'Entregas' });
    expect(callsTo(calls, '/alert/delivery/api/v1/index')[0]?.body).toEqual({
      rota_alerts_id: 2,
      page: 1,
      per_page: 50,
    });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Pendente')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('×3')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('500')).toBeInTheDocument();
    // Codes, translated: the log never shows how a delivery failed on the way.
    expect(within(rows[1]!).getByText('Não entregue')).toBeInTheDocument();
    // The next try, relative and in the user's clock.
    expect(within(rows[1]!).getByText(/em 30 segundos/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Falhou')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Agente perdido')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Destino não permitido')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Entregue')).toBeInTheDocument();

    const before = callsTo(calls, '/alert/delivery/api/v1/index').length;
    await user.click(within(drawer).getByRole('button', { name: 'Enviar teste' }));
    expect(await screen.findByText('Teste entregue (código 200).')).toBeInTheDocument();
    expect(callsTo(calls, '/alert/api/v1/test')[0]?.body).toEqual({ id: 2 });
    await waitFor(() =>
      expect(callsTo(calls, '/alert/delivery/api/v1/index').length).toBeGreaterThan(before),
    );
  });

  it('reports a test that was not delivered: the receiver\u2019s status, never how it failed', async () => {
    let answer: Partial<AlertDelivery> = {};
    const { user } = await openAlerts(ALL, {
      reply: (call) =>
        call.url.endsWith('/rota/alert/api/v1/test')
          ? {
              status: 200,
              body: {
                message: 'Teste enviado',
                data: makeDelivery({ status: 'failed', event_type: 'alert.test', ...answer }),
              },
            }
          : undefined,
    });
    await openRowAction(user, 'Chamados', 'Entregas');
    const drawer = await screen.findByRole('dialog', { name: 'Entregas de “Chamados”' });
    const send = within(drawer).getByRole('button', { name: 'Enviar teste' });
    answer = { response_code: 503, last_error: 'not_delivered' };
    await user.click(send);
    expect(
      await screen.findByText('O teste não foi entregue: o destino respondeu 503.'),
    ).toBeInTheDocument();
    answer = { response_code: null, last_error: 'not_delivered' };
    await user.click(send);
    expect(await screen.findByText('O teste não foi entregue.')).toBeInTheDocument();
    answer = { response_code: null, last_error: 'destination_not_allowed' };
    await user.click(send);
    expect(
      await screen.findByText(/^O teste não foi enviado: o destino não é permitido/),
    ).toBeInTheDocument();
  });

  it('shows no write buttons to a user who may only list', async () => {
    const { user } = await openAlerts(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Alertas' });
    expect(screen.queryByRole('button', { name: 'Novo alerta' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Ativo: Chamados' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Ações de Chamados' }));
    expect(await screen.findAllByRole('menuitem')).toHaveLength(1);
    await user.click(screen.getByRole('menuitem', { name: 'Entregas' }));
    const drawer = await screen.findByRole('dialog', { name: 'Entregas de “Chamados”' });
    await within(drawer).findByRole('table', { name: 'Entregas' });
    expect(within(drawer).queryByRole('button', { name: 'Enviar teste' })).toBeNull();
  });

  it('speaks English: the list, the form and the log', async () => {
    const { user } = await openAlerts(ALL, { lang: 'en' });
    const table = await screen.findByRole('table', { name: 'Alerts' });
    expect(within(table).getAllByText('Application error').length).toBeGreaterThan(0);
    expect(within(table).getAllByText('All robots').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'New alert' }));
    const drawer = await screen.findByRole('dialog', { name: 'New alert' });
    expect(within(drawer).getByRole('radio', { name: 'English' })).toBeChecked();
    await user.click(within(drawer).getByRole('radio', { name: 'Slack' }));
    expect(within(drawer).getByRole('textbox', { name: /^Incoming webhook URL/ })).toBeVisible();
    await user.click(within(drawer).getByRole('button', { name: 'Create alert' }));
    expect(await within(drawer).findByText('Must be an http(s) address')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for Chamados' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Deliveries' }));
    const log = await screen.findByRole('dialog', { name: 'Deliveries of “Chamados”' });
    expect(await within(log).findByText('Pending')).toBeInTheDocument();
    expect(within(log).getByText(/in 30 seconds/)).toBeInTheDocument();
  });
});

describe('the bell', { timeout: 30_000 }, () => {
  it('counts the unread, lists the latest and marks them read when opened', async () => {
    const { user, calls, router } = await openAlerts(ALL, { feed: FEED });
    const bell = await screen.findByRole('button', { name: 'Alertas, 120 não lidos' });
    expect(await screen.findByText('99+')).toBeInTheDocument();
    await user.click(bell);
    const popover = await screen.findByRole('dialog', { name: 'Últimos alertas' });
    const entries = within(popover).getAllByRole('listitem');
    expect(entries[0]).toHaveTextContent('Robô Faturas: erro de aplicação');
    expect(entries[0]).toHaveTextContent('há 5 minutos');
    expect(entries[1]).toHaveTextContent('Agente agente-01 perdido');
    expect(entries[2]).toHaveTextContent('Tarefa NF 123 em risco');
    expect(entries[0]).toHaveAttribute('data-unread');
    expect(entries[2]).not.toHaveAttribute('data-unread');
    await waitFor(() => expect(callsTo(calls, '/alert/feed/api/v1/seen')).toHaveLength(1));
    expect(callsTo(calls, '/alert/feed/api/v1/seen')[0]?.body).toEqual({ up_to: 9 });
    // Read now: no count; the entries stay marked while it is open.
    expect(await screen.findByRole('button', { name: 'Alertas' })).toBeInTheDocument();
    expect(entries[0]).toHaveAttribute('data-unread');
    // An entry opens its execution.
    await user.click(within(entries[0]!).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity/77'));
  });

  it('says when there is nothing, in English too', async () => {
    const { user, calls } = await openAlerts(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Alerts' }));
    const popover = await screen.findByRole('dialog', { name: 'Latest alerts' });
    expect(within(popover).getByText('No alerts')).toBeInTheDocument();
    expect(callsTo(calls, '/alert/feed/api/v1/seen')).toHaveLength(0);
  });

  it('reads agent and task entries in English', async () => {
    const { user } = await openAlerts(ALL, { lang: 'en', feed: { ...FEED, unread: 2 } });
    await user.click(await screen.findByRole('button', { name: 'Alerts, 2 unread' }));
    const popover = await screen.findByRole('dialog', { name: 'Latest alerts' });
    expect(within(popover).getByText('Robot Faturas: application error')).toBeInTheDocument();
    expect(within(popover).getByText('Agent agente-01 lost')).toBeInTheDocument();
    expect(within(popover).getByText('Task NF 123 at risk')).toBeInTheDocument();
  });
});
