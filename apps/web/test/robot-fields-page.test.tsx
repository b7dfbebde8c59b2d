import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../src/lib/session';
import { makeRobot, makeRobotField, makeUser } from './fixtures';
import { mockFetch, page, type MockCall } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

const ALL = ['ROBOS.LIST', 'ROBOS.CREATE', 'ROBOS.UPDATE', 'ROBOS.DELETE'];
const faturas = makeRobot();
const boletos = makeRobot({ rota_robots_id: 2, name: 'Boletos' });
const invoice = makeRobotField({ required: true });
const due = makeRobotField({
  rota_robot_fields_id: 2,
  rota_robots_id: 2,
  name: 'due',
  label: 'Vencimento',
  type: 'date',
});

async function openFields(permissions: string[], path = '/robot/field') {
  await resetEnvironment('pt');
  setToken('token');
  const { calls } = mockFetch(({ url, body }: MockCall) => {
    if (url.endsWith('/me')) return { status: 200, body: makeUser({ permissions }) };
    if (url.endsWith('/field/api/v1/index')) return { status: 200, body: page([invoice, due]) };
    if (url.endsWith('/robot/api/v1/index')) return { status: 200, body: page([faturas, boletos]) };
    if (url.endsWith('/robot/api/v1/show')) {
      const { id } = body as { id: number };
      return { status: 200, body: { data: id === 2 ? boletos : faturas } };
    }
    if (url.endsWith('/field/api/v1/create')) {
      return { status: 201, body: { message: 'Criado!', data: invoice } };
    }
    if (url.endsWith('/field/api/v1/update')) return { status: 204 };
    if (url.endsWith('/field/api/v1/delete'))
      return { status: 202, body: { message: 'Removido!' } };
    throw new Error(`unexpected ${url}`);
  });
  const view = renderWithRouter({ path });
  await screen.findByRole('heading', { name: 'Campos do robô', level: 1 }, { timeout: 5000 });
  return { ...view, calls };
}

const callsTo = (calls: MockCall[], suffix: string) => calls.filter((c) => c.url.endsWith(suffix));

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/robot/field', { timeout: 20_000 }, () => {
  it('lists every robot’s fields with their robot, type and requirement', async () => {
    await openFields(ALL);
    const table = await screen.findByRole('table', { name: 'Campos do robô' });
    expect(within(table).getByText('invoice')).toBeInTheDocument();
    expect(within(table).getByText('Data')).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Obrigatório' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Opcional' })).toBeInTheDocument();
    expect(await within(table).findByRole('link', { name: 'Boletos' })).toHaveAttribute(
      'href',
      '/robot/2',
    );
  });

  it('filters by robot through the URL', async () => {
    const { calls, router, user } = await openFields(ALL);
    await user.click(screen.getByRole('combobox', { name: 'Robô' }));
    await user.click(await screen.findByRole('option', { name: 'Boletos' }));
    expect(router.state.location.search).toBe('?rota_robots_id=2');
    await waitFor(() =>
      expect(callsTo(calls, '/field/api/v1/index').at(-1)?.body).toMatchObject({
        rota_robots_id: 2,
      }),
    );
  });

  it('creates a field for the chosen robot, with the contract’s rules', async () => {
    const { calls, user } = await openFields(ALL);
    await user.click(screen.getByRole('button', { name: 'Novo campo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo campo' });
    await user.click(within(dialog).getByRole('button', { name: 'Criar campo' }));
    expect(await within(dialog).findByText('Robô obrigatório')).toBeInTheDocument();
    expect(within(dialog).getByText('Nome obrigatório')).toBeInTheDocument();
    expect(within(dialog).getByText('Rótulo obrigatório')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: 'Robô' }));
    await user.click(await screen.findByRole('option', { name: 'Faturas' }));
    const name = within(dialog).getByLabelText('Nome', { exact: false });
    await user.type(name, '1abc');
    await user.type(within(dialog).getByLabelText('Rótulo', { exact: false }), 'Número');
    await user.click(within(dialog).getByRole('button', { name: 'Criar campo' }));
    expect(
      await within(dialog).findByText('Use letras, dígitos e "_", começando por uma letra'),
    ).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'number');
    await user.click(within(dialog).getByRole('combobox', { name: 'Tipo' }));
    await user.click(await screen.findByRole('option', { name: 'Número' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Obrigatório' }));
    await user.click(within(dialog).getByRole('button', { name: 'Criar campo' }));
    await waitFor(() => expect(callsTo(calls, '/field/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/field/api/v1/create')[0]?.body).toEqual({
      rota_robots_id: 1,
      name: 'number',
      label: 'Número',
      type: 'number',
      required: true,
    });
  });

  it('edits and deletes a field from its row menu', async () => {
    const { calls, user } = await openFields(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de invoice' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar campo' });
    expect(within(dialog).queryByRole('combobox', { name: 'Robô' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/field/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/field/api/v1/update')[0]?.body).toEqual({
      id: 1,
      name: 'invoice',
      label: 'Invoice number',
      type: 'text',
      required: true,
    });

    await user.click(screen.getByRole('button', { name: 'Ações de due' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir o campo “due”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/field/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/field/api/v1/delete')[0]?.body).toEqual({ id: 2 });
  });

  it('hides "Novo campo" and the row actions from a user who may only list', async () => {
    await openFields(['ROBOS.LIST']);
    await screen.findByRole('table', { name: 'Campos do robô' });
    expect(screen.queryByRole('button', { name: 'Novo campo' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de invoice' })).not.toBeInTheDocument();
  });
});
