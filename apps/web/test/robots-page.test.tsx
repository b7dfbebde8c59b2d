import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { setToken } from '../src/lib/session';
import { makeRobot, makeUser } from './fixtures';
import { mockFetch, page, type MockCall } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

const ALL = ['ROBOS.LIST', 'ROBOS.CREATE', 'ROBOS.UPDATE', 'ROBOS.DELETE', 'ATIVIDADES.LIST'];

const faturas = makeRobot({
  current_version: { rota_robot_versions_id: 10, version: '1.2.0' },
});
const boletos = makeRobot({
  rota_robots_id: 2,
  name: 'Boletos',
  description: null,
  executor: 'node index.js',
  active: false,
});

async function openRobots(
  permissions: string[],
  options: { lang?: Language; path?: string; robots?: unknown[] } = {},
) {
  await resetEnvironment(options.lang ?? 'pt');
  setToken('token');
  let robots = options.robots ?? [faturas, boletos];
  const { calls } = mockFetch(({ url, body }: MockCall) => {
    if (url.endsWith('/me')) return { status: 200, body: makeUser({ permissions }) };
    if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: page(robots) };
    if (url.endsWith('/robot/api/v1/create')) {
      const created = makeRobot({ rota_robots_id: 3, ...(body as object) });
      robots = [...robots, created];
      return { status: 201, body: { message: 'Criado!', data: created } };
    }
    if (url.endsWith('/robot/api/v1/update')) return { status: 204 };
    if (url.endsWith('/robot/api/v1/delete'))
      return { status: 202, body: { message: 'Removido!' } };
    throw new Error(`unexpected ${url}`);
  });
  const view = renderWithRouter({ path: options.path ?? '/robot' });
  // The first render loads the shell's and the page's chunks.
  await screen.findByRole('heading', { name: /Robôs|Robots/, level: 1 }, { timeout: 5000 });
  return { ...view, calls };
}

const indexCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.url.endsWith('/robot/api/v1/index'));

beforeEach(async () => {
  await resetEnvironment('pt');
});

// Page tests load the shell's and the page's chunks on first render.
describe('/robot', { timeout: 20_000 }, () => {
  it('lists robots with name, executor, current version, status and update time', async () => {
    const { calls } = await openRobots(ALL);
    const table = await screen.findByRole('table', { name: 'Robôs' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByRole('link', { name: 'Faturas' })).toHaveAttribute(
      'href',
      '/robot/1',
    );
    expect(within(rows[1]!).getByText('python main.py')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('1.2.0')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Ativo')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Sem versão')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Inativo')).toBeInTheDocument();
    expect(indexCalls(calls)[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('sends the URL state to the index: search, status filter, sort, page', async () => {
    const { calls } = await openRobots(ALL, {
      path: '/robot?search=fat&active=false&sort=updated_at&order=desc&page=2&per_page=50',
    });
    await screen.findByRole('table', { name: 'Robôs' });
    expect(indexCalls(calls)[0]?.body).toEqual({
      page: 2,
      per_page: 50,
      search: 'fat',
      sort: 'updated_at',
      order: 'desc',
      active: false,
    });
  });

  it('opens a robot from its row', async () => {
    const { router, user } = await openRobots(['ROBOS.LIST']);
    const table = await screen.findByRole('table', { name: 'Robôs' });
    await user.click(within(table).getByText('python main.py'));
    // The detail page's chunk loads before the location changes.
    await waitFor(() => expect(router.state.location.pathname).toBe('/robot/1'));
  });

  it('hides "Novo robô", edit and delete from a user who may only list', async () => {
    const { user } = await openRobots(['ROBOS.LIST']);
    await screen.findByRole('table', { name: 'Robôs' });
    expect(screen.queryByRole('button', { name: 'Novo robô' })).not.toBeInTheDocument();
    // Without ATIVIDADES.LIST, no link to the tasks either.
    expect(screen.queryByRole('link', { name: 'Tarefas' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ações de Faturas' }));
    expect(await screen.findByRole('menuitem', { name: 'Abrir' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).not.toBeInTheDocument();
  });

  it('shows "Novo robô", edit and delete with the permissions', async () => {
    const { user } = await openRobots(ALL);
    expect(await screen.findByRole('button', { name: 'Novo robô' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Campos' })).toHaveAttribute('href', '/robot/field');
    // The page's link and the sidebar's entry both lead to the tasks.
    for (const link of screen.getAllByRole('link', { name: 'Tarefas' })) {
      expect(link).toHaveAttribute('href', expect.stringMatching(/^\/task/));
    }
    await user.click(await screen.findByRole('button', { name: 'Ações de Faturas' }));
    expect(await screen.findByRole('menuitem', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Excluir' })).toBeInTheDocument();
  });

  it('an empty list says what to do and offers "Novo robô"', async () => {
    await openRobots(ALL, { robots: [] });
    expect(await screen.findByText('Nenhum robô ainda')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Novo robô' })).toHaveLength(2);
  });

  it.each([
    [
      'pt',
      'Novo robô',
      'Nome do processo',
      'Nome do processo obrigatório',
      'Executor obrigatório',
      'Criar robô',
    ],
    [
      'en',
      'New robot',
      'Process name',
      'Required process name',
      'Required executor',
      'Create robot',
    ],
  ] as const)(
    'the robot form shows the required messages in %s',
    async (lang, newLabel, nameLabel, nameMessage, executorMessage, submit) => {
      const { user, calls } = await openRobots(ALL, { lang });
      await user.click(await screen.findByRole('button', { name: newLabel }));
      const dialog = await screen.findByRole('dialog', { name: newLabel });
      await user.click(within(dialog).getByRole('button', { name: submit }));
      expect(await within(dialog).findByText(nameMessage)).toBeInTheDocument();
      expect(within(dialog).getByText(executorMessage)).toBeInTheDocument();
      expect(within(dialog).getByLabelText(nameLabel, { exact: false })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(calls.filter((c) => c.url.endsWith('/create'))).toHaveLength(0);
    },
  );

  it('sends the task SLA settings of a new robot', async () => {
    const { user, calls } = await openRobots(ALL);
    await screen.findByRole('table', { name: 'Robôs' });
    await user.click(screen.getByRole('button', { name: 'Novo robô' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo robô' });
    await user.type(within(dialog).getByLabelText('Nome do processo', { exact: false }), 'Notas');
    await user.type(within(dialog).getByLabelText('Executor', { exact: false }), 'python notas.py');
    await user.type(within(dialog).getByLabelText('SLA das tarefas (minutos)'), '240');
    await user.type(within(dialog).getByLabelText('Em risco a menos de (minutos)'), '30');
    const retries = within(dialog).getByLabelText('Novas tentativas após erro de aplicação');
    await user.clear(retries);
    await user.type(retries, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Criar robô' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/create'))).toHaveLength(1));
    expect(calls.find((c) => c.url.endsWith('/create'))?.body).toMatchObject({
      task_sla_minutes: 240,
      task_risk_minutes: 30,
      task_retries: 3,
    });
  });

  it('creates a robot, closes the drawer and refreshes the list', async () => {
    const { user, calls } = await openRobots(ALL);
    await screen.findByRole('table', { name: 'Robôs' });
    await user.click(screen.getByRole('button', { name: 'Novo robô' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo robô' });
    await user.type(within(dialog).getByLabelText('Nome do processo', { exact: false }), 'Notas');
    await user.type(within(dialog).getByLabelText('Executor', { exact: false }), 'python notas.py');
    await user.click(within(dialog).getByRole('button', { name: 'Criar robô' }));

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Novo robô' })).not.toBeInTheDocument(),
    );
    const create = calls.find((c) => c.url.endsWith('/create'));
    expect(create?.body).toEqual({
      name: 'Notas',
      description: null,
      executor: 'python notas.py',
      remote_root: null,
      active: true,
      task_sla_minutes: null,
      task_risk_minutes: null,
      task_retries: 0,
      stall_minutes: null,
      stall_action: 'flag',
      required_labels: [],
    });
    expect(await screen.findByRole('link', { name: 'Notas' })).toBeInTheDocument();
    expect(indexCalls(calls).length).toBeGreaterThanOrEqual(2);
    expect(await screen.findByText('Criado!')).toBeInTheDocument();
  });

  it('edits a robot with its values filled in (PUT update)', async () => {
    const { user, calls } = await openRobots(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Faturas' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar robô' });
    const name = within(dialog).getByLabelText('Nome do processo', { exact: false });
    expect(name).toHaveValue('Faturas');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Nome do processo obrigatório')).toBeInTheDocument();
    await user.type(name, 'Faturas 2');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/update'))).toBe(true));
    const update = calls.find((c) => c.url.endsWith('/update'));
    expect(update?.method).toBe('PUT');
    expect(update?.body).toMatchObject({ id: 1, name: 'Faturas 2', executor: 'python main.py' });
  });

  it('asks before deleting, naming the robot', async () => {
    const { user, calls } = await openRobots(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Boletos' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o robô “Boletos”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/delete'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/delete'))?.body).toEqual({ id: 2 });
  });

  it('names the delete in English', async () => {
    const { user } = await openRobots(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Actions for Boletos' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(
      await screen.findByRole('dialog', { name: 'Delete robot “Boletos”?' }),
    ).toBeInTheDocument();
  });
});
