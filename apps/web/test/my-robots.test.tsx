import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttendedAgent, MyRobot, MyRobots } from '@rota/contract';
import { makeDashboard, makeExecution } from './activity-fixtures';
import { makeRobotField } from './fixtures';
import type { MockCall, MockReply } from './http-mock';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

const agent = (overrides: Partial<AttendedAgent> = {}): AttendedAgent => ({
  rota_nodes_id: 7,
  name: 'notebook-ana',
  rota_vms_id: 3,
  vm_name: 'desktop-ana',
  connectivity: 'active',
  ...overrides,
});

const robot = (overrides: Partial<MyRobot> = {}): MyRobot => ({
  rota_robots_id: 1,
  name: 'Faturas',
  description: 'Lança as faturas do dia',
  required_labels: [],
  agent_ids: [7],
  ...overrides,
});

const mine = (data: Partial<MyRobots> = {}) => ({
  status: 200,
  body: { data: { agents: [agent()], robots: [robot()], truncated: false, ...data } },
});

const queued = {
  status: 201,
  body: { message: 'Execução enfileirada', data: { execution_id: 77 } },
};

function open(
  handler: (call: MockCall) => MockReply | undefined,
  lang: 'pt' | 'en' = 'pt',
  permissions = ['ROBOS.LIST', 'ROBOS.UPDATE'],
) {
  return openPage(
    '/my-robots',
    lang === 'pt' ? /Meus robôs/ : /My robots/,
    permissions,
    (call) => {
      const custom = handler(call);
      if (custom) return custom;
      if (call.url.endsWith('/robot/field/api/v1/index')) return { status: 200, body: listOf([]) };
      if (call.url.endsWith('/status/item/api/v1/palette'))
        return { status: 200, body: { data: [] } };
      return undefined;
    },
    lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('my robots', { timeout: 20_000 }, () => {
  it('lists the attended agents with their connectivity and the robots, and searches', async () => {
    const { calls, user } = await open((call) =>
      call.url.includes('/attended/api/v1/robots')
        ? mine({
            agents: [
              agent(),
              agent({ rota_nodes_id: 8, name: 'pc-casa', connectivity: 'inactive' }),
            ],
            robots: [
              robot(),
              robot({ rota_robots_id: 2, name: 'SAP', agent_ids: [], required_labels: ['sap'] }),
            ],
          })
        : undefined,
    );
    expect(await screen.findByText('notebook-ana')).toBeInTheDocument();
    expect(screen.getByText('Ativo')).toBeInTheDocument();
    expect(screen.getByText('Inativo')).toBeInTheDocument();
    expect(screen.getByText('Executa em: notebook-ana')).toBeInTheDocument();
    // A robot none of the machines can take cannot be started.
    expect(screen.getByRole('button', { name: 'Executar SAP na minha máquina' })).toBeDisabled();
    expect(screen.getByText('Nenhuma das suas máquinas tem os rótulos dele')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Buscar robôs' }), 'fat');
    await waitFor(() =>
      expect(calls.some((call) => call.url.endsWith('/attended/api/v1/robots?search=fat'))).toBe(
        true,
      ),
    );
  });

  it('says how to install an attended agent when the user has none', async () => {
    await open(
      (call) =>
        call.url.includes('/attended/api/v1/robots') ? mine({ agents: [], robots: [] }) : undefined,
      'en',
    );
    expect(await screen.findByText('You have no attended agent yet')).toBeInTheDocument();
    expect(
      screen.getByText(/rota-agent install --attended --user <your access>/),
    ).toBeInTheDocument();
  });

  it('is in the sidebar with ROBOS.UPDATE', async () => {
    await open((call) => (call.url.includes('/attended/api/v1/robots') ? mine() : undefined));
    expect(screen.getByRole('link', { name: 'Meus robôs' })).toHaveAttribute('href', '/my-robots');
  });

  it('is not in the sidebar without ROBOS.UPDATE', async () => {
    const { calls } = await openPage('/dashboard', /Início/, ['ROBOS.LIST'], (call) => {
      if (call.url.endsWith('/dashboard/api/v1/index')) {
        return { status: 200, body: { data: makeDashboard() } };
      }
      if (call.url.endsWith('/status/item/api/v1/palette')) {
        return { status: 200, body: { data: [] } };
      }
      return undefined;
    });
    expect(screen.getByRole('link', { name: 'Robôs' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Meus robôs' })).not.toBeInTheDocument();
    expect(callsTo(calls, '/attended/api/v1/robots')).toHaveLength(0);
  });
});

describe('run on my machine', { timeout: 20_000 }, () => {
  it('sends the chosen agent and the task data, and links to the execution', async () => {
    const { calls, user } = await open((call) => {
      if (call.url.includes('/attended/api/v1/robots')) {
        return mine({
          agents: [agent(), agent({ rota_nodes_id: 8, name: 'pc-casa', connectivity: 'active' })],
          robots: [robot({ agent_ids: [7, 8] })],
        });
      }
      if (call.url.endsWith('/attended/api/v1/run')) return queued;
      return undefined;
    });
    await user.click(
      await screen.findByRole('button', { name: 'Executar Faturas na minha máquina' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Executar Faturas na minha máquina' });
    // Two machines online: the person chooses.
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    expect(
      await within(drawer).findByText('Escolha qual das suas máquinas o executa'),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/attended/api/v1/run')).toHaveLength(0);

    await user.click(within(drawer).getByRole('combobox', { name: /Máquina/ }));
    await user.click(await screen.findByRole('option', { name: /pc-casa/ }));
    const data = within(drawer).getByRole('textbox', { name: /Dados da tarefa/ });
    await user.click(data);
    await user.paste('[1]');
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    expect(await within(drawer).findByText(/Deve ser um objeto JSON/)).toBeInTheDocument();

    await user.clear(data);
    await user.click(data);
    await user.paste('{"invoice": "A-42"}');
    await user.click(within(drawer).getByRole('button', { name: 'Executar' }));
    await waitFor(() => expect(callsTo(calls, '/attended/api/v1/run')).toHaveLength(1));
    expect(callsTo(calls, '/attended/api/v1/run')[0]?.body).toEqual({
      id: 1,
      rota_nodes_id: 8,
      task_data: { invoice: 'A-42' },
    });
    expect(await screen.findByRole('link', { name: 'Ver a execução #77' })).toHaveAttribute(
      'href',
      '/activity/77',
    );
  });

  it("preselects the only agent and shows the server's field errors in the form", async () => {
    const { calls, user } = await open((call) => {
      if (call.url.includes('/attended/api/v1/robots')) return mine();
      if (call.url.endsWith('/robot/field/api/v1/index')) {
        return { status: 200, body: listOf([makeRobotField({ required: true })]) };
      }
      if (call.url.endsWith('/attended/api/v1/run')) {
        return {
          status: 400,
          body: {
            code: 'validation_failed',
            message: 'Invalid data',
            errors: [
              { field: 'task_data.invoice', message: 'Must be at most 20 characters' },
              { field: 'id', message: "This machine's agent lacks labels the robot needs" },
            ],
          },
        };
      }
      return undefined;
    }, 'en');
    await user.click(await screen.findByRole('button', { name: 'Run Faturas on my machine' }));
    const drawer = await screen.findByRole('dialog', { name: 'Run Faturas on my machine' });
    expect(within(drawer).getByRole('combobox', { name: /Machine/ })).toHaveValue(
      'notebook-ana · desktop-ana (Active)',
    );
    expect(await within(drawer).findByText(/The robot's fields: invoice\*/)).toBeInTheDocument();
    const data = within(drawer).getByRole('textbox', { name: /Task data/ });
    // The robot's required field is checked before anything is sent.
    await user.click(data);
    await user.paste('{"other": 1}');
    await user.click(within(drawer).getByRole('button', { name: 'Run' }));
    expect(await within(drawer).findByText(/^invoice: /)).toBeInTheDocument();
    expect(callsTo(calls, '/attended/api/v1/run')).toHaveLength(0);

    await user.clear(data);
    await user.paste('{"invoice": "A-42"}');
    await user.click(within(drawer).getByRole('button', { name: 'Run' }));
    expect(
      await within(drawer).findByText('invoice: Must be at most 20 characters'),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText("This machine's agent lacks labels the robot needs"),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/attended/api/v1/run')[0]?.body).toEqual({
      id: 1,
      rota_nodes_id: 7,
      task_data: { invoice: 'A-42' },
    });
  });
});

describe('attended badge', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Assistida', 'Assistida: iniciada por Ana Souza na própria máquina', /Execução #42/],
    ['en', 'Attended', 'Attended: started by Ana Souza on their machine', /Execution #42/],
  ] as const)(
    'marks an attended execution on its page (%s)',
    async (lang, label, title, heading) => {
      const execution = makeExecution({ attended_by: 9, attended_by_name: 'Ana Souza' });
      await openPage(
        '/activity/42',
        heading,
        ['HISTORIC.LIST'],
        (call) => {
          if (call.url.includes('/activity/api/v1/show')) {
            return { status: 200, body: { data: { ...execution, attempt_list: [] } } };
          }
          if (call.url.endsWith('/status/item/api/v1/palette'))
            return { status: 200, body: { data: [] } };
          return { status: 200, body: listOf([]) };
        },
        lang,
      );
      const badge = screen.getByLabelText(title);
      expect(badge).toHaveTextContent(label);
    },
  );

  it('marks attended rows of the Activity list, and only those', async () => {
    await openPage('/activity', /Atividades|Atividade/, ['HISTORIC.LIST'], (call) => {
      if (call.url.endsWith('/activity/api/v1/index')) {
        return {
          status: 200,
          body: listOf([
            makeExecution({ attended_by: 9, attended_by_name: 'Ana Souza' }),
            makeExecution({ execution_id: 41 }),
          ]),
        };
      }
      if (call.url.endsWith('/status/item/api/v1/palette')) {
        return { status: 200, body: { data: [] } };
      }
      return { status: 200, body: listOf([]) };
    });
    expect(
      await screen.findByLabelText('Assistida: iniciada por Ana Souza na própria máquina'),
    ).toHaveTextContent('Assistida');
    expect(screen.getAllByText('Assistida')).toHaveLength(1);
  });
});
