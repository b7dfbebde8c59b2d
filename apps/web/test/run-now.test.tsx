import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLiveServer, makeExecution } from './activity-fixtures';
import { makeRobot, makeRobotField } from './fixtures';
import type { MockCall, MockReply } from './http-mock';
import { callsTo, listOf, makeScheduling, makeVm, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

const queued = {
  status: 201,
  body: { message: 'Execução enfileirada', data: { execution_id: 77 } },
};

async function openRobot(
  permissions: string[],
  handler?: (call: MockCall) => MockReply | undefined,
) {
  const live = createLiveServer();
  const view = await openPage('/robot/1', /Faturas/, permissions, (call) => {
    const custom = handler?.(call);
    if (custom) return custom;
    const { url } = call;
    if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
    if (url.endsWith('/robot/field/api/v1/index')) {
      return { status: 200, body: listOf([makeRobotField()]) };
    }
    if (url.endsWith('/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
    // The robot page's triggers section.
    if (url.endsWith('/trigger/api/v1/index')) return { status: 200, body: listOf([]) };
    if (url.endsWith('/activity/api/v1/index')) {
      return { status: 200, body: listOf([makeExecution(), makeExecution({ execution_id: 41 })]) };
    }
    if (url.endsWith('/robot/api/v1/run')) return queued;
    if (url.endsWith('/events/api/v1/stream')) return live.reply();
    return undefined;
  });
  return { ...view, live };
}

const toasts = () => notificationsStore.getState().notifications;

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('run now', { timeout: 20_000 }, () => {
  it('runs a robot with its own settings, checked by robotRunSchema, and links to the execution', async () => {
    const { calls, user, router } = await openRobot(['ROBOS.LIST', 'ROBOS.UPDATE', 'AGENTES.LIST']);
    await user.click(screen.getByRole('button', { name: 'Executar agora' }));
    const drawer = await screen.findByRole('dialog', { name: 'Executar “Faturas” agora' });
    const priority = within(drawer).getByRole('textbox', { name: /Prioridade/ });
    await user.type(priority, '500');
    await user.type(within(drawer).getByRole('textbox', { name: /Novas tentativas/ }), '11');
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    // Each range error says its range.
    expect(await within(drawer).findByText('Entre 1 e 100')).toBeInTheDocument();
    expect(within(drawer).getByText('Entre 0 e 10')).toBeInTheDocument();
    expect(callsTo(calls, '/robot/api/v1/run')).toHaveLength(0);

    await user.clear(priority);
    await user.type(priority, '80');
    await user.clear(within(drawer).getByRole('textbox', { name: /Novas tentativas/ }));
    await user.click(within(drawer).getByRole('combobox', { name: /VM/ }));
    await user.click(await screen.findByRole('option', { name: 'vm-financeiro' }));
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));

    await waitFor(() => expect(callsTo(calls, '/robot/api/v1/run')).toHaveLength(1));
    // Empty inputs are left out: the server applies the defaults.
    expect(callsTo(calls, '/robot/api/v1/run')[0]?.body).toEqual({
      id: 1,
      rota_vms_id: 1,
      priority: 80,
    });
    const link = await screen.findByRole('link', { name: 'Ver a execução #77' });
    expect(link).toHaveAttribute('href', '/activity/77');
    expect(screen.getByText('Execução enfileirada')).toBeInTheDocument();
    // One toast (no "Criado!" popup besides it), bottom-left like every toast.
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]?.position).toBe('bottom-left');
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Executar “Faturas” agora' }),
      ).not.toBeInTheDocument(),
    );
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/activity/77'));
  });

  it('sends only the robot when every input is left empty, with no VM input without AGENTES.LIST', async () => {
    const { calls, user } = await openRobot(['ROBOS.LIST', 'ROBOS.UPDATE']);
    await user.click(screen.getByRole('button', { name: 'Executar agora' }));
    const drawer = await screen.findByRole('dialog', { name: 'Executar “Faturas” agora' });
    expect(within(drawer).queryByRole('combobox', { name: /VM/ })).not.toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    await waitFor(() => expect(callsTo(calls, '/robot/api/v1/run')).toHaveLength(1));
    expect(callsTo(calls, '/robot/api/v1/run')[0]?.body).toEqual({ id: 1 });
  });

  it('is not offered without ROBOS.UPDATE', async () => {
    await openRobot(['ROBOS.LIST']);
    expect(screen.queryByRole('button', { name: 'Executar agora' })).not.toBeInTheDocument();
  });

  it('runs a scheduling from its row, after a confirmation', async () => {
    const { calls, user } = await openPage(
      '/scheduling',
      /Agendamentos/,
      ['AGENDAMENTOS.LIST', 'AGENDAMENTOS.UPDATE'],
      ({ url }) => {
        if (url.endsWith('/scheduling/api/v1/index')) {
          return { status: 200, body: listOf([makeScheduling()]) };
        }
        if (url.endsWith('/scheduling/api/v1/run')) return queued;
        if (url.endsWith('/events/api/v1/stream')) return { status: 503 };
        return undefined;
      },
    );
    await user.click(
      await screen.findByRole('button', { name: 'Ações de Faturas de hora em hora' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Executar agora' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Executar “Faturas de hora em hora” agora?',
    });
    expect(within(dialog).getByText(/O robô “Faturas” entra na fila/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Executar agora' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/run')).toHaveLength(1));
    expect(callsTo(calls, '/scheduling/api/v1/run')[0]?.body).toEqual({ id: 1 });
    expect(await screen.findByRole('link', { name: 'Ver a execução #77' })).toHaveAttribute(
      'href',
      '/activity/77',
    );
  });

  it('hides the scheduling run action without AGENDAMENTOS.UPDATE', async () => {
    const { user } = await openPage(
      '/scheduling',
      /Agendamentos/,
      ['AGENDAMENTOS.LIST', 'AGENDAMENTOS.DELETE'],
      ({ url }) => {
        if (url.endsWith('/scheduling/api/v1/index')) {
          return { status: 200, body: listOf([makeScheduling()]) };
        }
        if (url.endsWith('/events/api/v1/stream')) return { status: 503 };
        return undefined;
      },
    );
    await user.click(
      await screen.findByRole('button', { name: 'Ações de Faturas de hora em hora' }),
    );
    expect(await screen.findByRole('menuitem', { name: 'Excluir' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Executar agora' })).not.toBeInTheDocument();
  });
});

describe('robot overview: latest executions', { timeout: 20_000 }, () => {
  it('lists the robot’s last five executions with HISTORIC.LIST, and refreshes live', async () => {
    const { calls, live } = await openRobot(['ROBOS.LIST', 'HISTORIC.LIST']);
    const table = await screen.findByRole('table', { name: 'Últimas execuções' });
    expect(within(table).getByRole('link', { name: '#42' })).toHaveAttribute(
      'href',
      '/activity/42',
    );
    expect(within(table).getByRole('link', { name: '#41' })).toBeInTheDocument();
    expect(callsTo(calls, '/activity/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 5,
      sort: 'queued_at',
      order: 'desc',
      rota_robots_id: 1,
    });
    expect(screen.getByRole('link', { name: 'Ver todas' })).toHaveAttribute(
      'href',
      '/activity?rota_robots_id=1',
    );
    await waitFor(() => expect(live.connections).toBe(1));
    live.send({ type: 'execution', execution_id: 43, rota_robots_id: 1, status: 'queued' });
    await waitFor(() => expect(callsTo(calls, '/activity/api/v1/index')).toHaveLength(2));
  });

  it('is left out without HISTORIC.LIST', async () => {
    const { calls } = await openRobot(['ROBOS.LIST']);
    expect(await screen.findByRole('table', { name: 'Campos do robô' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Últimas execuções' })).not.toBeInTheDocument();
    expect(callsTo(calls, '/activity/api/v1/index')).toHaveLength(0);
  });
});
