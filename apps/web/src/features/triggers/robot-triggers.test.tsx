// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language, Trigger, TriggerWithToken } from '@rota/contract';
import { makeRobot, makeRobotField } from '../../../test/fixtures';
import { page, type MockCall, type MockReply } from '../../../test/http-mock';
import { callsTo, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';
import { exampleTaskData, triggerFireExample } from './components/trigger-fire-example';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const TOKEN = 'rota_trg_T0k3nShownOnlyOnce';
const ROTATED = 'rota_trg_N3wT0k3nAfterRotation';

function makeTrigger(overrides: Partial<Trigger> = {}): Trigger {
  return {
    rota_triggers_id: 1,
    rota_robots_id: 1,
    robot_name: 'Faturas',
    name: 'Central de serviços',
    token_hint: 'abcd',
    revoked_at: null,
    last_fired_at: new Date(NOW.getTime() - 2 * 3600_000).toISOString(),
    created_at: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

const desk = makeTrigger();
const revoked = makeTrigger({
  rota_triggers_id: 2,
  name: 'Antigo',
  token_hint: 'wxyz',
  revoked_at: '2026-11-10T12:00:00.000Z',
  last_fired_at: null,
});

const ROBOTS_ALL = ['ROBOS.LIST', 'ROBOS.CREATE', 'ROBOS.UPDATE', 'ROBOS.DELETE'];

async function openRobot(
  permissions: string[] = ROBOTS_ALL,
  options: { lang?: Language; reply?: (call: MockCall) => MockReply | undefined } = {},
) {
  return openPage(
    '/robot/1',
    /^Faturas$/,
    permissions,
    (call) => {
      const custom = options.reply?.(call);
      if (custom) return custom;
      const { url } = call;
      if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
      if (url.endsWith('/robot/field/api/v1/index')) {
        return { status: 200, body: page([makeRobotField()]) };
      }
      if (url.endsWith('/trigger/api/v1/index')) {
        return { status: 200, body: page([desk, revoked]) };
      }
      if (url.endsWith('/trigger/api/v1/create')) {
        const body = call.body as { name: string };
        const created: TriggerWithToken = {
          ...makeTrigger({ rota_triggers_id: 3, name: body.name, last_fired_at: null }),
          token: TOKEN,
        };
        return { status: 201, body: { message: 'Criado!', data: created } };
      }
      if (url.endsWith('/trigger/api/v1/rotate')) {
        return {
          status: 200,
          body: { message: 'Renovado!', data: { ...desk, token_hint: 'once', token: ROTATED } },
        };
      }
      if (url.endsWith('/trigger/api/v1/revoke')) {
        return { status: 200, body: { message: 'Revogado!' } };
      }
      if (url.endsWith('/trigger/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
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

describe('the fire example’s task data', () => {
  it('gives each declared field a value of its type, and any object to a robot without fields', () => {
    expect(
      exampleTaskData([
        makeRobotField({ name: 'invoice', type: 'number' }),
        makeRobotField({ name: 'urgent', type: 'boolean' }),
        makeRobotField({ name: 'due', type: 'date' }),
      ]),
    ).toEqual({ invoice: 0, urgent: false, due: '2030-01-31' });
    expect(exampleTaskData([])).toEqual({ order: 1234 });
    expect(triggerFireExample('tok', [makeRobotField({ name: "it's" })], 'https://r')).toContain(
      `-d '{"tasks":[{"label":"Order 1234","data":{"it'\\''s":"text"}}]}'`,
    );
  });
});

describe('a robot’s triggers', { timeout: 30_000 }, () => {
  it('lists the robot’s triggers with the token’s hint, last fire and status', async () => {
    const { calls } = await openRobot();
    const table = await screen.findByRole('table', { name: 'Gatilhos de Faturas' });
    expect(callsTo(calls, '/trigger/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
      rota_robots_id: 1,
    });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Central de serviços')).toBeInTheDocument();
    expect(within(first!).getByText('…abcd')).toBeInTheDocument();
    expect(within(first!).getByText('há 2 horas')).toBeInTheDocument();
    expect(within(first!).getByText('Ativo')).toBeInTheDocument();
    expect(within(second!).getByText('Nunca')).toBeInTheDocument();
    expect(within(second!).getByText('Revogado')).toBeInTheDocument();
  });

  it('creates a trigger and shows its token once, with a fire example', async () => {
    const { user, calls } = await openRobot();
    await user.click(await screen.findByRole('button', { name: 'Novo gatilho' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo gatilho' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'ERP');
    await user.click(within(drawer).getByRole('button', { name: 'Criar gatilho' }));
    await waitFor(() =>
      expect(callsTo(calls, '/trigger/api/v1/create')[0]?.body).toEqual({
        rota_robots_id: 1,
        name: 'ERP',
      }),
    );
    const reveal = await screen.findByRole('dialog', { name: 'Token do gatilho “ERP”' });
    expect(within(reveal).getByText('Copie agora')).toBeInTheDocument();
    expect(within(reveal).getByRole('textbox', { name: 'Token' })).toHaveValue(TOKEN);
    const example = within(reveal).getByText(/\/api\/rota\/trigger\/api\/v1\/fire/);
    expect(example).toHaveTextContent(`Authorization: Bearer ${TOKEN}`);
    expect(example).toHaveTextContent('Idempotency-Key: order-1234');
    expect(example).toHaveTextContent('"tasks":[');
    // Its task's data fits the robot: one value per declared field.
    const field = makeRobotField();
    expect(example).toHaveTextContent(`"data":{"${field.name}":`);
    await user.click(within(reveal).getByRole('button', { name: 'Já copiei' }));
    await waitFor(() => expect(screen.queryByDisplayValue(TOKEN)).toBeNull());
    expect(screen.queryByText(TOKEN, { exact: false })).toBeNull();
  });

  it('rotates a token only after a confirmation that says the old one stops (en)', async () => {
    const { user, calls } = await openRobot(ROBOTS_ALL, { lang: 'en' });
    await screen.findByRole('table', { name: 'Triggers of Faturas' });
    await user.click(
      await screen.findByRole('button', { name: 'Actions for Central de serviços' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate token' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Rotate the token of “Central de serviços”?',
    });
    expect(within(confirm).getByText(/old token stops working at once/)).toBeInTheDocument();
    // Backing out rotates nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(calls, '/trigger/api/v1/rotate')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Actions for Central de serviços' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate token' }));
    const again = await screen.findByRole('dialog', {
      name: 'Rotate the token of “Central de serviços”?',
    });
    await user.click(within(again).getByRole('button', { name: 'Rotate token' }));
    await waitFor(() =>
      expect(callsTo(calls, '/trigger/api/v1/rotate')[0]?.body).toEqual({ id: 1 }),
    );
    const reveal = await screen.findByRole('dialog', {
      name: 'Token of the trigger “Central de serviços”',
    });
    expect(within(reveal).getByRole('textbox', { name: 'Token' })).toHaveValue(ROTATED);
    expect(within(reveal).getByText(/rotate the token to get a new one/)).toBeInTheDocument();
  });

  it('revokes and deletes a trigger', async () => {
    const { user, calls } = await openRobot();
    await screen.findByRole('table', { name: 'Gatilhos de Faturas' });
    await openRowAction(user, 'Central de serviços', 'Revogar');
    const confirm = await screen.findByRole('dialog', {
      name: 'Revogar o gatilho “Central de serviços”?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Revogar' }));
    await waitFor(() =>
      expect(callsTo(calls, '/trigger/api/v1/revoke')[0]?.body).toEqual({ id: 1 }),
    );
    // A revoked trigger is not revoked again; a new token would bring it back.
    await user.click(screen.getByRole('button', { name: 'Ações de Antigo' }));
    expect(await screen.findByRole('menuitem', { name: 'Renovar token' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Revogar' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const remove = await screen.findByRole('dialog', { name: 'Excluir o gatilho “Antigo”?' });
    await user.click(within(remove).getByRole('button', { name: 'Excluir' }));
    await waitFor(() =>
      expect(callsTo(calls, '/trigger/api/v1/delete')[0]?.body).toEqual({ id: 2 }),
    );
  });

  it('only lists them for a user with ROBOS.LIST alone', async () => {
    await openRobot(['ROBOS.LIST']);
    await screen.findByRole('table', { name: 'Gatilhos de Faturas' });
    expect(screen.queryByRole('button', { name: 'Novo gatilho' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ações de Central de serviços' })).toBeNull();
  });
});
