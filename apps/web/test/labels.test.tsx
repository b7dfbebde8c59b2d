import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Agent, Execution, Language } from '@rota/contract';
import { createLiveServer, makeExecution, makeExecutionDetail } from './activity-fixtures';
import { makeRobot } from './fixtures';
import {
  callsTo,
  listOf,
  makeAgent,
  makeScheduling,
  makeVm,
  openPage,
} from './operations-fixtures';
import { resetEnvironment } from './render';

/**
 * Labels in the console: tags inputs in the agent, robot and scheduling forms and in Run now,
 * checked with the contract's schema; the agents list shows what each agent carries; a queued
 * run says which labels no agent has.
 */
beforeEach(async () => {
  await resetEnvironment('pt');
});

const AGENTS = ['AGENTES.LIST', 'AGENTES.UPDATE'];

async function openAgents(agents: Agent[], lang: Language = 'pt') {
  const live = createLiveServer();
  return openPage(
    '/node',
    /Agentes|Agents/,
    AGENTS,
    ({ url }) => {
      if (url.endsWith('/rota/node/api/v1/index')) return { status: 200, body: listOf(agents) };
      if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
      if (url.endsWith('/rota/vm/api/v1/show')) return { status: 200, body: { data: makeVm() } };
      if (url.endsWith('/rota/node/api/v1/update')) return { status: 204 };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

describe('an agent’s labels', { timeout: 20_000 }, () => {
  it('are edited as tags and sent lowercased, each once', async () => {
    const { calls, user } = await openAgents([makeAgent({ labels: ['excel'] })]);
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-01' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar agente' });
    const input = within(drawer).getByRole('combobox', { name: /Rótulos/ });
    await user.type(input, 'SAP,chrome,');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/node/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/node/api/v1/update')[0]?.body).toMatchObject({
      id: 1,
      labels: ['chrome', 'excel', 'sap'],
    });
  });

  it('a label the schema refuses says so in the form, and nothing is sent', async () => {
    const { calls, user } = await openAgents([makeAgent()]);
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-01' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar agente' });
    await user.type(within(drawer).getByRole('combobox', { name: /Rótulos/ }), 'sap!{Enter}');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(drawer).findByText(
        'Um rótulo usa letras minúsculas, dígitos, ".", "_" e "-", de 1 a 40 caracteres',
      ),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/node/api/v1/update')).toHaveLength(0);
  });

  it('the list shows what it carries, its OS and architecture in a lighter style', async () => {
    const agent = makeAgent({
      labels: ['excel'],
      effective_labels: ['excel', 'sap', 'windows', 'x64'],
      facts: {
        os: 'win32 10.0.22631',
        os_version: 'Windows 11 Pro',
        arch: 'x64',
        hostname: 'rpa-win-01',
        cpus: 8,
        memory_bytes: 1,
        free_disk_bytes: null,
        agent_version: '3.0.1',
        mode: 'service',
      },
    });
    await openAgents([agent], 'en');
    const labels = await screen.findByTestId('labels');
    expect(within(labels).getByText('excel').closest('[data-automatic]')).toBeNull();
    expect(within(labels).getByText('sap').closest('[data-automatic]')).toBeNull();
    expect(within(labels).getByText('windows').closest('[data-automatic]')).not.toBeNull();
    expect(within(labels).getByText('x64').closest('[data-automatic]')).not.toBeNull();
  });
});

async function openRobot(path = '/robot/1') {
  const live = createLiveServer();
  return openPage(
    path,
    /Faturas|Robôs/,
    ['ROBOS.LIST', 'ROBOS.CREATE', 'ROBOS.UPDATE', 'AGENTES.LIST', 'AGENDAMENTOS.LIST'],
    ({ url }) => {
      if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
      if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([makeRobot()]) };
      if (url.endsWith('/robot/field/api/v1/index')) return { status: 200, body: listOf([]) };
      if (url.endsWith('/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
      if (url.endsWith('/trigger/api/v1/index')) return { status: 200, body: listOf([]) };
      if (url.endsWith('/activity/api/v1/index')) return { status: 200, body: listOf([]) };
      if (url.endsWith('/robot/api/v1/run')) {
        return { status: 201, body: { message: 'ok', data: { execution_id: 77 } } };
      }
      if (url.endsWith('/robot/api/v1/update')) return { status: 204 };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
  );
}

describe('a run’s labels', { timeout: 20_000 }, () => {
  it('Run now sends the labels it adds', async () => {
    const { calls, user } = await openRobot();
    await user.click(await screen.findByRole('button', { name: 'Executar agora' }));
    const drawer = await screen.findByRole('dialog', { name: 'Executar “Faturas” agora' });
    await user.type(within(drawer).getByRole('combobox', { name: /Rótulos/ }), 'sap{Enter}');
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    await waitFor(() => expect(callsTo(calls, '/robot/api/v1/run')).toHaveLength(1));
    expect(callsTo(calls, '/robot/api/v1/run')[0]?.body).toEqual({ id: 1, labels: ['sap'] });
  });

  it('a robot’s required labels are edited in its form', async () => {
    const { calls, user } = await openRobot('/robot');
    await user.click(await screen.findByRole('button', { name: 'Ações de Faturas' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar robô' });
    const input = within(drawer).getByRole('combobox', { name: /Rótulos exigidos/ });
    await user.type(input, 'windows excel ');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/robot/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/robot/api/v1/update')[0]?.body).toMatchObject({
      id: 1,
      required_labels: ['excel', 'windows'],
    });
  });

  it('a scheduling’s labels are edited in its form', async () => {
    const live = createLiveServer();
    const { calls, user } = await openPage(
      '/scheduling',
      /Agendamentos/,
      ['AGENDAMENTOS.LIST', 'AGENDAMENTOS.UPDATE', 'ROBOS.LIST', 'AGENTES.LIST'],
      ({ url }) => {
        if (url.endsWith('/scheduling/api/v1/index')) {
          return { status: 200, body: listOf([makeScheduling({ labels: ['sap'] })]) };
        }
        if (url.endsWith('/robot/api/v1/index'))
          return { status: 200, body: listOf([makeRobot()]) };
        if (url.endsWith('/robot/api/v1/show')) return { status: 200, body: { data: makeRobot() } };
        if (url.endsWith('/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
        if (url.endsWith('/calendar/api/v1/index')) return { status: 200, body: listOf([]) };
        if (url.endsWith('/scheduling/api/v1/preview')) return { status: 200, body: { next: [] } };
        if (url.endsWith('/scheduling/api/v1/update')) return { status: 204 };
        if (url.endsWith('/events/api/v1/stream')) return live.reply();
        return undefined;
      },
    );
    await user.click(
      await screen.findByRole('button', { name: /Ações de Faturas de hora em hora/ }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: /Editar agendamento/ });
    await user.type(within(drawer).getByRole('combobox', { name: /^Rótulos/ }), 'chrome{Enter}');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/scheduling/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/scheduling/api/v1/update')[0]?.body).toMatchObject({
      labels: ['chrome', 'sap'],
    });
  });
});

const waiting = (overrides: Partial<Execution>) =>
  makeExecution({
    status: 'queued',
    pending_reason: 'no_agent_with_labels',
    rota_nodes_id: null,
    rota_executor_name: null,
    start_date: null,
    end_date: null,
    duration_ms: null,
    exit_code: null,
    ...overrides,
  });

async function openActivity(executions: Execution[], lang: Language) {
  const live = createLiveServer();
  return openPage(
    '/activity',
    /Atividades|Activity/,
    ['HISTORIC.LIST', 'ROBOS.LIST'],
    ({ url }) => {
      if (url.endsWith('/activity/api/v1/index')) return { status: 200, body: listOf(executions) };
      if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: listOf([makeRobot()]) };
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

describe('an execution’s labels', { timeout: 20_000 }, () => {
  it('its page shows the labels it needs', async () => {
    const live = createLiveServer();
    const run = makeExecutionDetail({ labels: ['excel', 'sap'] });
    await openPage(
      `/activity/${run.execution_id}`,
      /Execução #/,
      ['HISTORIC.LIST'],
      ({ url, body }) => {
        if (url.endsWith('/activity/api/v1/show')) return { status: 200, body: { data: run } };
        if (url.endsWith('/activity/api/v1/logs')) {
          const { after } = body as { after: number };
          return { status: 200, body: { data: [], meta: { last_seq: after } } };
        }
        if (url.endsWith('/events/api/v1/stream')) return live.reply();
        return undefined;
      },
    );
    const labels = await screen.findByTestId('labels');
    expect(within(labels).getByText('excel')).toBeInTheDocument();
    expect(within(labels).getByText('sap')).toBeInTheDocument();
    expect(screen.getByText('Rótulos exigidos')).toBeInTheDocument();
  });
});

describe('why a run waits for labels', { timeout: 20_000 }, () => {
  it('names the labels no agent of its VMs carries, in pt and en', async () => {
    const run = waiting({ labels: ['excel', 'sap'], missing_labels: ['sap'] });
    await openActivity([run], 'pt');
    expect(
      await screen.findByText(/Aguardando: nenhum agente das suas VMs tem sap\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver os rótulos dos agentes' })).toHaveAttribute(
      'href',
      '/node',
    );
    await resetEnvironment('en');
    await openActivity([run], 'en');
    expect(
      await screen.findByText(/Waiting: no agent of its VMs carries sap\./),
    ).toBeInTheDocument();
  });

  it('when each is carried somewhere but never all together, names them all', async () => {
    await openActivity([waiting({ labels: ['excel', 'sap'], missing_labels: [] })], 'en');
    expect(
      await screen.findByText(/Waiting: no agent of its VMs carries all of excel, sap\./),
    ).toBeInTheDocument();
  });
});
