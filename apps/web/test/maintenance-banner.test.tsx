import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MaintenanceWindow } from '@rota/contract';
import { MaintenanceBanner, MaintenanceDrawer } from '../src/features/maintenance';
import { setToken } from '../src/lib/session';
import { mockFetch } from './http-mock';
import { callsTo, listOf, makeVm, openPage, openRowAction } from './operations-fixtures';
import { renderElement, resetEnvironment } from './render';

const cluster = (overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
  rota_maintenance_windows_id: 1,
  scope: 'cluster',
  rota_vms_id: null,
  vm_name: null,
  mode: 'drain',
  message: 'Atualização do PostgreSQL, volta às 18:00',
  started_by: 'Ana Souza',
  started_at: '2026-12-07T14:00:00.000Z',
  skipped: [],
  ...overrides,
});

const skipped = (id: number) => ({
  rota_schedulings_id: id,
  scheduling_name: `Agendamento ${id}`,
  due_at: '2026-12-07T14:05:00.000Z',
  skipped_at: '2026-12-07T14:05:01.000Z',
});

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('maintenance banner', () => {
  it('says who started it, since when and why, in pt', async () => {
    renderElement(<MaintenanceBanner windows={[cluster()]} />);
    const banner = await screen.findByRole('status', {
      name: 'Toda a Control Room está em manutenção',
    });
    expect(within(banner).getByText('Atualização do PostgreSQL, volta às 18:00')).toBeVisible();
    expect(
      within(banner).getByText(/^Iniciada por Ana Souza em 07\/12\/2026 \d{2}:\d{2}$/),
    ).toBeVisible();
    expect(
      within(banner).getByText('Nenhuma execução nova começa; as em andamento terminam.'),
    ).toBeVisible();
    // Nobody may end it here: no button.
    expect(within(banner).queryByRole('button')).toBeNull();
  });

  it('names the VM, the mode and the schedulings skipped, in en', async () => {
    await resetEnvironment('en');
    renderElement(
      <MaintenanceBanner
        windows={[
          cluster({
            rota_maintenance_windows_id: 2,
            scope: 'vm',
            rota_vms_id: 9,
            vm_name: 'vm-billing-01',
            mode: 'kill',
            skipped: [skipped(1), skipped(2)],
          }),
        ]}
      />,
    );
    const banner = await screen.findByRole('status', {
      name: 'VM vm-billing-01 is in maintenance',
    });
    expect(within(banner).getByText(/^Started by Ana Souza on 12\/07\/2026 /)).toBeVisible();
    expect(
      within(banner).getByText(
        'No new runs start; running ones were killed. 2 schedulings skipped.',
      ),
    ).toBeVisible();
  });

  it('shows nothing without an active window, and End for whoever may end it', async () => {
    const { container } = renderElement(<MaintenanceBanner windows={[]} />);
    expect(container.querySelector('[role="status"]')).toBeNull();
    const onEnd = vi.fn();
    const view = renderElement(
      <MaintenanceBanner windows={[cluster()]} canEnd={() => true} onEnd={onEnd} />,
    );
    await view.user.click(await screen.findByRole('button', { name: 'Encerrar manutenção' }));
    expect(onEnd).toHaveBeenCalledWith(cluster());
  });
});

describe('maintenance drawer', () => {
  it('requires a reason, then sends the VM, the mode and the reason', async () => {
    setToken('token');
    const { calls } = mockFetch(() => ({
      status: 201,
      body: { message: 'Manutenção iniciada', data: cluster() },
    }));
    const view = renderElement(
      <MaintenanceDrawer
        opened
        onClose={() => {}}
        target={{ scope: 'vm', vmId: 9, vmName: 'vm-billing-01' }}
      />,
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'Iniciar manutenção da VM vm-billing-01',
    });
    await view.user.click(within(drawer).getByRole('button', { name: 'Iniciar manutenção' }));
    expect(await within(drawer).findByText('Motivo obrigatório')).toBeVisible();
    expect(calls).toHaveLength(0);
    await view.user.click(within(drawer).getByText('Encerrar agora'));
    await view.user.type(within(drawer).getByLabelText(/Motivo/), 'Troca de disco');
    await view.user.click(within(drawer).getByRole('button', { name: 'Iniciar manutenção' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.url).toMatch(/\/api\/rota\/maintenance\/api\/v1\/start$/);
    expect(calls[0]!.body).toEqual({
      scope: 'vm',
      rota_vms_id: 9,
      mode: 'kill',
      message: 'Troca de disco',
    });
  });
});

describe('maintenance in the shell', () => {
  it("shows a VM's window above the page, and starts one from the VM's row", async () => {
    const vm = makeVm();
    const { user, calls } = await openPage(
      '/vm',
      /Máquinas virtuais/,
      ['AGENTES.LIST', 'AGENTES.UPDATE'],
      ({ url }) => {
        if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf([vm]) };
        if (url.endsWith('/rota/vm/api/v1/count')) {
          return { status: 200, body: { total: 1, active: 1, inactive: 0 } };
        }
        if (url.endsWith('/rota/maintenance/api/v1/start')) {
          return { status: 201, body: { message: 'Manutenção iniciada', data: cluster() } };
        }
        return undefined;
      },
      'pt',
      {
        maintenance: [
          cluster({ scope: 'vm', rota_vms_id: 5, vm_name: 'vm-rh', skipped: [skipped(3)] }),
        ],
      },
    );
    const banner = await screen.findByRole('status', { name: 'A VM vm-rh está em manutenção' });
    expect(within(banner).getByText(/1 agendamento pulado\.$/)).toBeVisible();
    // AGENTES.UPDATE may end a VM's window.
    expect(within(banner).getByRole('button', { name: 'Encerrar manutenção' })).toBeVisible();
    await openRowAction(user, vm.name, 'Manutenção');
    const drawer = await screen.findByRole('dialog', {
      name: `Iniciar manutenção da VM ${vm.name}`,
    });
    await user.type(within(drawer).getByLabelText(/Motivo/), 'Troca de memória');
    await user.click(within(drawer).getByRole('button', { name: 'Iniciar manutenção' }));
    await waitFor(() => expect(callsTo(calls, '/maintenance/api/v1/start')).toHaveLength(1));
    expect(callsTo(calls, '/maintenance/api/v1/start')[0]!.body).toEqual({
      scope: 'vm',
      rota_vms_id: vm.rota_vms_id,
      mode: 'drain',
      message: 'Troca de memória',
    });
  });
});
