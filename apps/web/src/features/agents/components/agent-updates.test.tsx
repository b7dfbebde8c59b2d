// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Agent, Language } from '@rota/contract';
import { createLiveServer } from '../../../../test/activity-fixtures';
import {
  callsTo,
  listOf,
  makeAgent,
  makeVm,
  openPage,
  openRowAction,
} from '../../../../test/operations-fixtures';

const ALL = ['AGENTES.LIST', 'AGENTES.CREATE', 'AGENTES.UPDATE', 'AGENTES.DELETE'];
const older = makeAgent({ rota_nodes_id: 1, name: 'agente-01', update_available: true });
const current = makeAgent({ rota_nodes_id: 2, name: 'agente-02', version: '3.2.0' });

async function openAgents(
  permissions: string[],
  options: { lang?: Language; path?: string; agents?: Agent[] } = {},
) {
  const live = createLiveServer();
  let auto = false;
  return openPage(
    options.path ?? '/node',
    /Agentes|Agents/,
    permissions,
    ({ url, body }) => {
      if (url.endsWith('/rota/node/api/v1/index')) {
        return { status: 200, body: listOf(options.agents ?? [older, current]) };
      }
      if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf([makeVm()]) };
      if (url.endsWith('/rota/vm/api/v1/show')) return { status: 200, body: { data: makeVm() } };
      if (url.endsWith('/rota/node/api/v1/auto_update/show')) {
        return { status: 200, body: { data: { enabled: auto, shipped_version: '3.2.0' } } };
      }
      if (url.endsWith('/rota/node/api/v1/auto_update')) {
        auto = (body as { enabled: boolean }).enabled;
        return { status: 200, body: { data: { enabled: auto, shipped_version: '3.2.0' } } };
      }
      if (url.endsWith('/rota/node/api/v1/update')) {
        return {
          status: 200,
          body: {
            message: '1 agente(s) serão atualizados entre execuções',
            data: { requested: 1 },
          },
        };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    options.lang,
  );
}

describe('agent updates on /node', { timeout: 20_000 }, () => {
  it('marks the agents an update is available for', async () => {
    await openAgents(['AGENTES.LIST'], { lang: 'en' });
    const table = await screen.findByRole('table', { name: 'Agents' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Update available')).toBeInTheDocument();
    expect(within(rows[2]!).queryByTestId('agent-update-available')).toBeNull();
  });

  it('updates one agent from its row, after a confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = await openAgents(ALL);
    await screen.findByText('Atualização disponível');
    await openRowAction(user, 'agente-01', 'Atualizar agente');
    const dialog = await screen.findByRole('dialog', { name: 'Atualizar o agente “agente-01”?' });
    expect(callsTo(calls, '/rota/node/api/v1/update')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(callsTo(calls, '/rota/node/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/rota/node/api/v1/update')[0]!.body).toEqual({ ids: [1] });
    // An agent already current has no such action.
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-02' }));
    expect(screen.queryByRole('menuitem', { name: 'Atualizar agente' })).toBeNull();
  });

  it('updates all agents, or the filtered VM’s, in English too', async () => {
    const user = userEvent.setup();
    const all = await openAgents(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Update all agents' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update all agents of this client?' });
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(callsTo(all.calls, '/rota/node/api/v1/update')).toHaveLength(1));
    expect(callsTo(all.calls, '/rota/node/api/v1/update')[0]!.body).toEqual({ all: true });
    all.unmount();

    const vm = await openAgents(ALL, { lang: 'en', path: '/node?rota_vms_id=1' });
    await user.click(await screen.findByRole('button', { name: "Update this VM's agents" }));
    const vmDialog = await screen.findByRole('dialog', { name: 'Update the agents of this VM?' });
    await user.click(within(vmDialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(callsTo(vm.calls, '/rota/node/api/v1/update')).toHaveLength(1));
    expect(callsTo(vm.calls, '/rota/node/api/v1/update')[0]!.body).toEqual({ rota_vms_id: 1 });
  });

  it('turns automatic updates on after a confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = await openAgents(ALL);
    const toggle = await screen.findByRole('switch', { name: 'Atualizações automáticas' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', {
      name: 'Ativar as atualizações automáticas?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Ativar' }));
    await waitFor(() =>
      expect(callsTo(calls, '/rota/node/api/v1/auto_update')[0]?.body).toEqual({ enabled: true }),
    );
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Atualizações automáticas' })).toBeChecked(),
    );
  });

  it('shows no update action without AGENTES.UPDATE', async () => {
    const { calls } = await openAgents(['AGENTES.LIST']);
    await screen.findByText('Atualização disponível');
    expect(screen.queryByRole('button', { name: 'Atualizar todos os agentes' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Atualizações automáticas' })).toBeNull();
    expect(callsTo(calls, '/rota/node/api/v1/auto_update/show')).toHaveLength(0);
  });
});
