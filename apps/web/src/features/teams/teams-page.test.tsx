import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, Team, TeamRobot, TeamUser } from '@rota/contract';
import { makeRobot } from '../../../test/fixtures';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const ALL = ['USUARIOS.LIST', 'USUARIOS.CREATE', 'USUARIOS.UPDATE', 'USUARIOS.DELETE'];
const STAMP = '2024-05-01T12:00:00.000Z';

function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    teams_id: 1,
    name: 'Financeiro',
    description: 'Faturas e pagamentos',
    robots: 1,
    users: 2,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

const finance = makeTeam();
const empty = makeTeam({ teams_id: 2, name: 'Vazia', description: null, robots: 0, users: 0 });

const financeRobots: TeamRobot[] = [
  {
    team_robots_id: 10,
    teams_id: 1,
    rota_robots_id: 1,
    rota_robots_name: 'Faturas',
    created_at: STAMP,
  },
];
const financeUsers: TeamUser[] = [
  {
    team_users_id: 20,
    teams_id: 1,
    users_id: 5,
    name: 'Ana',
    last_name: 'Lima',
    created_at: STAMP,
  },
  {
    team_users_id: 21,
    teams_id: 1,
    users_id: 6,
    name: 'Caio',
    last_name: 'Reis',
    created_at: STAMP,
  },
];

async function openTeams(
  permissions: string[],
  options: { lang?: Language; reply?: (call: MockCall) => MockReply | undefined } = {},
) {
  return openPage(
    '/team',
    /Equipes|Teams/,
    permissions,
    (call) => {
      const special = options.reply?.(call);
      if (special) return special;
      const { url } = call;
      if (url.endsWith('/teams/api/v1/index'))
        return { status: 200, body: listOf([finance, empty]) };
      if (url.endsWith('/teams/robots/api/v1/index')) {
        return { status: 200, body: listOf(financeRobots) };
      }
      if (url.endsWith('/teams/users/api/v1/index')) {
        return { status: 200, body: listOf(financeUsers) };
      }
      if (url.endsWith('/rota/robot/api/v1/index')) {
        return {
          status: 200,
          body: listOf([makeRobot(), makeRobot({ rota_robots_id: 2, name: 'Boletos' })]),
        };
      }
      if (url.endsWith('/user/api/v1/name')) {
        return {
          status: 200,
          body: {
            data: [
              { users_id: 5, name: 'Ana', last_name: 'Lima' },
              { users_id: 7, name: 'Bruno', last_name: 'Souza' },
            ],
          },
        };
      }
      if (url.endsWith('/teams/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: makeTeam({ teams_id: 3 }) } };
      }
      if (url.endsWith('/teams/api/v1/update')) return { status: 204 };
      if (url.endsWith('/teams/api/v1/delete'))
        return { status: 202, body: { message: 'Removido!' } };
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/team', { timeout: 20_000 }, () => {
  it('lists the teams with how many robots and users each has', async () => {
    const { calls } = await openTeams(ALL);
    const table = await screen.findByRole('table', { name: 'Equipes' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Financeiro')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Faturas e pagamentos')).toBeInTheDocument();
    const cells = within(rows[1]!).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(expect.arrayContaining(['1', '2']));
    expect(callsTo(calls, '/teams/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('hides "Nova equipe" and the row actions from a user who may only list', async () => {
    await openTeams(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Equipes' });
    expect(screen.queryByRole('button', { name: 'Nova equipe' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Financeiro' })).not.toBeInTheDocument();
  });

  it('shows the contract’s message under the name and sends nothing invalid', async () => {
    const { user, calls } = await openTeams([...ALL, 'ROBOS.LIST']);
    await user.click(await screen.findByRole('button', { name: 'Nova equipe' }));
    const drawer = await screen.findByRole('dialog', { name: 'Nova equipe' });
    await user.click(within(drawer).getByRole('button', { name: 'Criar equipe' }));
    expect(await within(drawer).findByText('Nome obrigatório')).toBeInTheDocument();
    expect(callsTo(calls, '/teams/api/v1/create')).toHaveLength(0);
  });

  it('creates a team with the robots and users picked from the server’s lists', async () => {
    const { user, calls } = await openTeams([...ALL, 'ROBOS.LIST']);
    await user.click(await screen.findByRole('button', { name: 'Nova equipe' }));
    const drawer = await screen.findByRole('dialog', { name: 'Nova equipe' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Cobrança');
    await user.click(within(drawer).getByRole('combobox', { name: /^Robôs/ }));
    await user.click(await screen.findByRole('option', { name: 'Boletos' }));
    await user.click(within(drawer).getByRole('combobox', { name: /^Usuários/ }));
    await user.click(await screen.findByRole('option', { name: 'Bruno Souza' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar equipe' }));

    await waitFor(() => expect(callsTo(calls, '/teams/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/teams/api/v1/create')[0]?.body).toEqual({
      name: 'Cobrança',
      description: null,
      robots: [2],
      users: [7],
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Nova equipe' })).not.toBeInTheDocument(),
    );
  });

  it('edits a team starting from its members and sends the whole sets', async () => {
    const { user, calls } = await openTeams([...ALL, 'ROBOS.LIST']);
    await openRowAction(user, 'Financeiro', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar equipe' });
    expect(callsTo(calls, '/teams/robots/api/v1/index')[0]?.body).toMatchObject({ teams_id: 1 });
    expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveValue('Financeiro');
    // The members come chosen, named as the team's lists name them.
    expect(within(drawer).getByText('Faturas')).toBeInTheDocument();
    expect(within(drawer).getByText('Caio Reis')).toBeInTheDocument();
    const caio = within(drawer).getByText('Caio Reis').closest('.mantine-Pill-root') as HTMLElement;
    await user.click(within(caio).getByRole('button', { hidden: true }));
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(callsTo(calls, '/teams/api/v1/update')).toHaveLength(1));
    const update = callsTo(calls, '/teams/api/v1/update')[0];
    expect(update?.method).toBe('PUT');
    expect(update?.body).toEqual({
      id: 1,
      name: 'Financeiro',
      description: 'Faturas e pagamentos',
      robots: [1],
      users: [5],
    });
  });

  it('keeps the team’s robots without ROBOS.LIST, and does not ask for the robot list', async () => {
    const { user, calls } = await openTeams(ALL);
    await openRowAction(user, 'Financeiro', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar equipe' });
    expect(within(drawer).getByText('Faturas')).toBeInTheDocument();
    expect(within(drawer).getByText(/Seu perfil não pode listar robôs/)).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/teams/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/teams/api/v1/update')[0]?.body).toMatchObject({ robots: [1] });
    expect(callsTo(calls, '/rota/robot/api/v1/index')).toHaveLength(0);
  });

  it('puts the server’s duplicate-name answer under the name, in English', async () => {
    const { user } = await openTeams(ALL, {
      lang: 'en',
      reply: ({ url }) =>
        url.endsWith('/teams/api/v1/create')
          ? {
              status: 409,
              body: {
                code: 'conflict',
                message: 'Conflict',
                errors: [{ field: 'name', message: 'A team with this name already exists' }],
              },
            }
          : undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'New team' }));
    const drawer = await screen.findByRole('dialog', { name: 'New team' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Name/ }), 'Financeiro');
    await user.click(within(drawer).getByRole('button', { name: 'Create team' }));
    expect(
      await within(drawer).findByText('A team with this name already exists'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New team' })).toBeInTheDocument();
  });

  it('deletes a team after a confirmation naming it', async () => {
    const { user, calls } = await openTeams(ALL);
    await openRowAction(user, 'Vazia', 'Excluir');
    const dialog = await screen.findByRole('dialog', { name: 'Excluir a equipe “Vazia”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/teams/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/teams/api/v1/delete')[0]?.body).toEqual({ id: 2 });
  });
});
