import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { resetEnvironment } from './render';
import { callsTo, openPage } from './operations-fixtures';
import { clientsProbe, makeClient } from './admin-fixtures';

async function openClients(options: { admin?: boolean; lang?: Language } = {}) {
  const probe = clientsProbe(options.admin ?? true, [
    makeClient(),
    makeClient({ rota_clients_id: 2, name: 'Beta', users: 1 }),
  ]);
  return openPage(
    '/client',
    /^(Clientes|Clients)$/,
    ['USUARIOS.LIST'],
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/rota/client/api/v1/create')) {
        return { status: 201, body: { message: 'Criado!', data: { rota_clients_id: 3 } } };
      }
      if (call.url.endsWith('/rota/client/api/v1/update')) return { status: 204 };
      return undefined;
    },
    options.lang,
  );
}

const meCalls = (calls: { url: string }[]) => callsTo(calls as never, '/auth/v1/me').length;

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/client', { timeout: 30_000 }, () => {
  it('lists the clients with their number of users', async () => {
    const { calls } = await openClients();
    const table = await screen.findByRole('table', { name: 'Clientes' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Acme')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('4')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('1')).toBeInTheDocument();
    expect(callsTo(calls, '/client/api/v1/index').at(-1)?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('creates a client, then reloads the signed-in user for the client selector', async () => {
    const { calls, user } = await openClients();
    await screen.findByRole('table', { name: 'Clientes' });
    const before = meCalls(calls);
    await user.click(screen.getByRole('button', { name: 'Novo cliente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo cliente' });
    await user.click(within(dialog).getByRole('button', { name: 'Criar cliente' }));
    expect(await within(dialog).findByText('Nome obrigatório')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Gama');
    // The client's members must sign in with a second factor.
    await user.click(
      within(dialog).getByRole('switch', { name: 'Exigir verificação em duas etapas' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Criar cliente' }));
    await waitFor(() => expect(callsTo(calls, '/client/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/client/api/v1/create')[0]?.body).toEqual({
      name: 'Gama',
      retention_days: 90,
      audit_retention_days: 365,
      require_mfa: true,
    });
    await waitFor(() => expect(meCalls(calls)).toBeGreaterThan(before));
  });

  it('renames a client and changes its retention, in English', async () => {
    const { calls, user } = await openClients({ lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Actions for Beta' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit client' });
    const name = within(dialog).getByLabelText(/^Name/);
    expect(name).toHaveValue('Beta');
    await user.clear(name);
    await user.type(name, 'Beta Ltda');
    const runs = within(dialog).getByLabelText(/^Keep executions/);
    expect(runs).toHaveValue('90');
    await user.clear(runs);
    await user.type(runs, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/client/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/client/api/v1/update')[0]?.body).toEqual({
      id: 2,
      name: 'Beta Ltda',
      retention_days: 30,
      audit_retention_days: 365,
      require_mfa: false,
    });
  });

  it('shows the denial to a user who is not a platform administrator', async () => {
    await openClients({ admin: false });
    expect(await screen.findByText('O acesso a pagina foi negado!')).toBeInTheDocument();
    expect(
      screen.getByText('Somente administradores da plataforma gerenciam clientes.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Novo cliente' })).not.toBeInTheDocument();
  });
});
