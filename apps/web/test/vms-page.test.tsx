import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, Vm } from '@rota/contract';
import { resetEnvironment } from './render';
import { callsTo, listOf, makeVm, openPage } from './operations-fixtures';

const ALL = ['AGENTES.LIST', 'AGENTES.CREATE', 'AGENTES.UPDATE', 'AGENTES.DELETE'];

const financeiro = makeVm();
const rh = makeVm({
  rota_vms_id: 2,
  name: 'vm-rh',
  hostname: 'rpa-lnx-02',
  label: null,
  os: null,
  connectivity: 'inactive',
  agents: 0,
});

async function openVms(
  permissions: string[],
  options: { lang?: Language; path?: string; vms?: Vm[]; deleteConflict?: boolean } = {},
) {
  let vms = options.vms ?? [financeiro, rh];
  return openPage(
    options.path ?? '/vm',
    /Máquinas virtuais|Virtual machines/,
    permissions,
    ({ url, body }) => {
      if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf(vms) };
      if (url.endsWith('/rota/vm/api/v1/count')) {
        return { status: 200, body: { total: 12, active: 9, inactive: 3 } };
      }
      if (url.endsWith('/rota/vm/api/v1/create')) {
        const created = makeVm({ rota_vms_id: 3, agents: 0, ...(body as object) });
        vms = [...vms, created];
        return { status: 201, body: { message: 'Criado!', data: created } };
      }
      if (url.endsWith('/rota/vm/api/v1/update')) return { status: 204 };
      if (url.endsWith('/rota/vm/api/v1/delete')) {
        return options.deleteConflict
          ? {
              status: 409,
              body: {
                code: 'conflict',
                message: 'Este registro conflita com um existente',
                errors: [{ field: 'id', message: 'A VM tem agentes; mova-os ou exclua-os antes' }],
              },
            }
          : { status: 202, body: { message: 'Removido!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/vm', { timeout: 20_000 }, () => {
  it('shows the count summary in three cards above the list', async () => {
    const { calls } = await openVms(ALL);
    const summary = await screen.findByRole('region', { name: 'Resumo das VMs' });
    await waitFor(() =>
      expect(within(summary).getByRole('group', { name: 'Total de VMs' })).toHaveTextContent('12'),
    );
    expect(within(summary).getByRole('group', { name: 'Ativas' })).toHaveTextContent('9');
    expect(within(summary).getByRole('group', { name: 'Inativas' })).toHaveTextContent('3');
    expect(callsTo(calls, '/rota/vm/api/v1/count')[0]?.method).toBe('POST');
  });

  it('names the summary cards in English', async () => {
    await openVms(ALL, { lang: 'en' });
    const summary = await screen.findByRole('region', { name: 'VM summary' });
    for (const name of ['Total VMs', 'Active', 'Inactive']) {
      expect(within(summary).getByRole('group', { name })).toBeInTheDocument();
    }
  });

  it('lists name, hostname, OS, label, agents and connectivity', async () => {
    const { calls } = await openVms(ALL);
    const table = await screen.findByRole('table', { name: 'Máquinas virtuais' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual([
      'Nome',
      'Hostname',
      'SO',
      'Rótulo',
      'Agentes',
      'Conectividade',
      'Ações',
    ]);
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('rpa-win-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Windows Server 2022')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('financeiro')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByRole('link', { name: 'Agentes de vm-financeiro' }),
    ).toHaveAttribute('href', '/node?rota_vms_id=1');
    expect(within(rows[1]!).getByText('Ativa')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Inativa')).toBeInTheDocument();
    expect(callsTo(calls, '/vm/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('hides "Nova VM", edit and delete from a user who may only list', async () => {
    await openVms(['AGENTES.LIST']);
    await screen.findByRole('table', { name: 'Máquinas virtuais' });
    expect(screen.queryByRole('button', { name: 'Nova VM' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de vm-rh' })).not.toBeInTheDocument();
    // The agents list is reachable from the page itself, besides the sidebar.
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Agentes' })).toHaveAttribute(
      'href',
      '/node',
    );
  });

  it('creates a VM through the drawer with the contract validation', async () => {
    const { user, calls } = await openVms(ALL);
    await user.click(await screen.findByRole('button', { name: 'Nova VM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova VM' });
    await user.click(within(dialog).getByRole('button', { name: 'Criar VM' }));
    expect(await within(dialog).findByText('Nome obrigatório')).toBeInTheDocument();
    expect(within(dialog).getByText('Hostname obrigatório')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Nome', { exact: false }), 'vm-compras');
    await user.type(within(dialog).getByLabelText('Hostname', { exact: false }), 'rpa-win-03');
    await user.type(within(dialog).getByLabelText('Sistema operacional'), 'Windows 11');
    await user.click(within(dialog).getByRole('button', { name: 'Criar VM' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Nova VM' })).not.toBeInTheDocument(),
    );
    expect(callsTo(calls, '/create')[0]?.body).toEqual({
      name: 'vm-compras',
      hostname: 'rpa-win-03',
      label: null,
      os: 'Windows 11',
      description: null,
    });
    expect(await screen.findByText('vm-compras')).toBeInTheDocument();
  });

  it('shows a duplicate name (409) under the name field', async () => {
    const { user } = await openPage('/vm', /Máquinas virtuais/, ALL, ({ url }) => {
      if (url.endsWith('/index')) return { status: 200, body: listOf([financeiro]) };
      if (url.endsWith('/count'))
        return { status: 200, body: { total: 1, active: 1, inactive: 0 } };
      if (url.endsWith('/create')) {
        return {
          status: 409,
          body: {
            code: 'conflict',
            message: 'Este registro conflita com um existente',
            errors: [{ field: 'name', message: 'duplicate_vm_name' }],
          },
        };
      }
      return undefined;
    });
    await user.click(await screen.findByRole('button', { name: 'Nova VM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova VM' });
    await user.type(within(dialog).getByLabelText('Nome', { exact: false }), 'vm-financeiro');
    await user.type(within(dialog).getByLabelText('Hostname', { exact: false }), 'rpa-win-09');
    await user.click(within(dialog).getByRole('button', { name: 'Criar VM' }));
    expect(await within(dialog).findByText('Já existe uma VM com este nome')).toBeInTheDocument();
  });

  it('edits a VM with its values filled in', async () => {
    const { user, calls } = await openVms(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de vm-financeiro' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar VM' });
    expect(within(dialog).getByLabelText('Hostname', { exact: false })).toHaveValue('rpa-win-01');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toMatchObject({
      id: 1,
      name: 'vm-financeiro',
      hostname: 'rpa-win-01',
    });
  });

  it('asks before deleting, naming the VM, and shows why a VM with agents stays', async () => {
    const { user, calls } = await openVms(ALL, { deleteConflict: true });
    await user.click(await screen.findByRole('button', { name: 'Ações de vm-financeiro' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir a VM “vm-financeiro”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(
      await within(dialog).findByText('A VM tem agentes; mova-os ou exclua-os antes'),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/delete')[0]?.body).toEqual({ id: 1 });
  });

  it('sends the connectivity filter from the URL', async () => {
    const { calls } = await openVms(ALL, { path: '/vm?connectivity=inactive&sort=hostname' });
    await screen.findByRole('table', { name: 'Máquinas virtuais' });
    expect(callsTo(calls, '/vm/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'hostname',
      order: 'asc',
      connectivity: 'inactive',
    });
  });
});
