import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Agent, Language } from '@rota/contract';
import { createLiveServer } from './activity-fixtures';
import { resetEnvironment } from './render';
import { callsTo, listOf, makeAgent, makeVm, openPage } from './operations-fixtures';

const ALL = ['AGENTES.LIST', 'AGENTES.CREATE', 'AGENTES.UPDATE', 'AGENTES.DELETE'];

const agente02 = makeAgent({
  rota_nodes_id: 2,
  name: 'agente-02',
  connectivity: 'inactive',
  last_seen_at: null,
  version: null,
  hostname: null,
});
const vms = [makeVm(), makeVm({ rota_vms_id: 2, name: 'vm-rh', agents: 0 })];
const DOWNLOADS = {
  version: '3.2.0',
  platforms: [
    { platform: 'linux-x64', file: 'rota-agent-linux-x64', sha256: 'c'.repeat(64), bytes: 1024 },
  ],
};
const GIB = 1024 ** 3;
const withFacts = makeAgent({
  facts: {
    os: 'win32 10.0.22631',
    os_version: 'Windows 11 Pro',
    arch: 'x64',
    hostname: 'rpa-win-01',
    cpus: 8,
    memory_bytes: 16 * GIB,
    free_disk_bytes: 512 * 1024 ** 2,
    agent_version: '3.0.1',
    mode: 'service',
  },
  low_disk: true,
});

let live = createLiveServer();

async function openAgents(
  permissions: string[],
  options: { lang?: Language; path?: string; agents?: Agent[] } = {},
) {
  live = createLiveServer();
  // Made now, so its last_seen_at is five minutes ago when the list shows.
  let agents = options.agents ?? [makeAgent(), agente02];
  return openPage(
    options.path ?? '/node',
    /Agentes|Agents/,
    permissions,
    ({ url, body }) => {
      if (url.endsWith('/rota/node/api/v1/index')) return { status: 200, body: listOf(agents) };
      if (url.endsWith('/rota/vm/api/v1/index')) return { status: 200, body: listOf(vms) };
      if (url.endsWith('/rota/vm/api/v1/show')) return { status: 200, body: { data: vms[0] } };
      if (url.endsWith('/rota/node/api/v1/create')) {
        const input = body as { name: string; rota_vms_id: number };
        const created = makeAgent({ rota_nodes_id: 3, ...input, last_seen_at: null });
        agents = [...agents, created];
        return {
          status: 201,
          body: { message: 'Criado!', data: { ...created, token: 'tok_created_123' } },
        };
      }
      if (url.endsWith('/rota/node/api/v1/rotate_token')) {
        return {
          status: 200,
          body: {
            message: 'Um novo token foi emitido; o anterior não funciona mais',
            data: { token: 'tok_rotated_456' },
          },
        };
      }
      if (url.endsWith('/rota/node/api/v1/update')) return { status: 204 };
      if (url.endsWith('/rota/node/api/v1/auto_update/show')) {
        return { status: 200, body: { data: { enabled: false, shipped_version: '3.2.0' } } };
      }
      if (url.endsWith('/rota/agent/download/api/v1/index')) {
        return { status: 200, body: { data: DOWNLOADS } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      if (url.endsWith('/rota/node/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/node', { timeout: 20_000 }, () => {
  it('lists agents with VM, connectivity and when they were last seen', async () => {
    const { calls } = await openAgents(ALL);
    const table = await screen.findByRole('table', { name: 'Agentes' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('agente-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('vm-financeiro')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Ativo')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('há 5 minutos')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Inativo')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Nunca')).toBeInTheDocument();
    expect(callsTo(calls, '/node/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('sends the VM and connectivity filters from the URL', async () => {
    const { calls } = await openAgents(ALL, { path: '/node?rota_vms_id=1&connectivity=active' });
    await screen.findByRole('table', { name: 'Agentes' });
    expect(callsTo(calls, '/node/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
      rota_vms_id: 1,
      connectivity: 'active',
    });
    // The VM filter shows the chosen VM by name.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'VM' })).toHaveValue('vm-financeiro'),
    );
  });

  it('hides "Novo agente" and the row actions from a user who may only list', async () => {
    await openAgents(['AGENTES.LIST']);
    await screen.findByRole('table', { name: 'Agentes' });
    expect(screen.queryByRole('button', { name: 'Novo agente' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de agente-01' })).not.toBeInTheDocument();
  });

  it('offers rotate and edit with AGENTES.UPDATE, delete only with AGENTES.DELETE', async () => {
    const { user } = await openAgents(['AGENTES.LIST', 'AGENTES.UPDATE']);
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-01' }));
    expect(await screen.findByRole('menuitem', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Gerar novo token' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).not.toBeInTheDocument();
  });

  it('creates an agent and shows its token once, with the start command', async () => {
    const { user, calls } = await openAgents(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo agente' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo agente' });
    await user.click(within(drawer).getByRole('button', { name: 'Criar agente' }));
    expect(await within(drawer).findByText('Nome obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('VM obrigatória')).toBeInTheDocument();

    await user.type(within(drawer).getByRole('textbox', { name: /Nome/ }), 'agente-03');
    await user.click(within(drawer).getByRole('combobox', { name: /VM/ }));
    await user.click(await screen.findByRole('option', { name: 'vm-rh' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar agente' }));

    const modal = await screen.findByRole('dialog', { name: 'Token do agente “agente-03”' });
    expect(callsTo(calls, '/node/api/v1/create')[0]?.body).toEqual({
      name: 'agente-03',
      rota_vms_id: 2,
      labels: [],
    });
    expect(screen.queryByRole('dialog', { name: 'Novo agente' })).not.toBeInTheDocument();
    expect(within(modal).getByText('Copie o token agora')).toBeInTheDocument();
    expect(
      within(modal).getByText(
        'Ele não será exibido novamente. Se for perdido, gere um novo token.',
      ),
    ).toBeInTheDocument();
    expect(within(modal).getByRole('textbox', { name: 'Token do agente' })).toHaveValue(
      'tok_created_123',
    );
    expect(
      within(modal).getByText(
        `ROTA_AGENT_TOKEN=tok_created_123 npm run agent -- --server ${window.location.origin}`,
      ),
    ).toBeInTheDocument();
    // Why the environment form: npm echoes its command line.
    expect(within(modal).getByText(/porque o npm mostra a linha de comando/)).toBeInTheDocument();

    await user.click(within(modal).getByRole('button', { name: 'Copiar token' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('tok_created_123'));

    await user.click(within(modal).getByRole('button', { name: 'Já copiei o token' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /Token do agente/ })).not.toBeInTheDocument(),
    );
    // Once closed, the token is nowhere on the page.
    expect(document.body).not.toHaveTextContent('tok_created_123');
    expect(await screen.findByText('agente-03')).toBeInTheDocument();
  });

  it('rotates a token after a confirmation and shows the new one once', async () => {
    const { user, calls } = await openAgents(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-01' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Gerar novo token' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Gerar um novo token para o agente “agente-01”?',
    });
    // Running runs are not killed: the confirmation says so.
    expect(
      within(confirm).getByText(/As execuções que este agente está rodando agora terminam/),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/rotate_token')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Gerar novo token' }));

    const modal = await screen.findByRole('dialog', { name: 'Token do agente “agente-01”' });
    expect(callsTo(calls, '/rotate_token')[0]?.body).toEqual({ id: 1 });
    expect(within(modal).getByRole('textbox', { name: 'Token do agente' })).toHaveValue(
      'tok_rotated_456',
    );
    await user.click(within(modal).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(document.body).not.toHaveTextContent('tok_rotated_456'));
  });

  it('speaks English in the token modal', async () => {
    const { user } = await openAgents(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Actions for agente-01' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate token' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Rotate the token of agent “agente-01”?',
    });
    expect(
      within(confirm).getByText(/The runs this agent is executing now finish/),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Rotate token' }));
    const modal = await screen.findByRole('dialog', { name: 'Token of agent “agente-01”' });
    expect(within(modal).getByText('Copy the token now')).toBeInTheDocument();
    expect(within(modal).getByRole('textbox', { name: 'Agent token' })).toHaveValue(
      'tok_rotated_456',
    );
    expect(
      within(modal).getByRole('button', { name: 'I have copied the token' }),
    ).toBeInTheDocument();
    expect(
      within(modal).getByText(
        `ROTA_AGENT_TOKEN=tok_rotated_456 npm run agent -- --server ${window.location.origin}`,
      ),
    ).toBeInTheDocument();
    expect(within(modal).getByText(/because npm prints the command line/)).toBeInTheDocument();
  });

  it('asks before deleting, naming the agent', async () => {
    const { user, calls } = await openAgents(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de agente-02' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o agente “agente-02”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/node/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/node/api/v1/delete')[0]?.body).toEqual({ id: 2 });
  });

  it.each([
    ['pt', 'Conexão perdida', 'Ativo'],
    ['en', 'Connection lost', 'Active'],
  ] as const)(
    '%s: shows an agent whose connection was lost as such, not as active',
    async (lang, lost, active) => {
      const lostAgent = makeAgent({ connection_lost_at: new Date().toISOString() });
      await resetEnvironment(lang);
      await openAgents(ALL, { lang, agents: [lostAgent] });
      const table = await screen.findByRole('table', { name: /Agentes|Agents/ });
      const row = within(table).getAllByRole('row')[1]!;
      expect(within(row).getByTestId('agent-connection-lost')).toHaveTextContent(lost);
      expect(within(row).queryByText(active)).not.toBeInTheDocument();
    },
  );

  it.each([
    [
      'pt',
      'Windows 11 Pro · x64',
      '8 CPUs · 16 GB de memória · 512 MB livres · Serviço',
      'Pouco espaço em disco',
    ],
    [
      'en',
      'Windows 11 Pro · x64',
      '8 CPUs · 16 GB memory · 512 MB free · Service',
      'Low disk space',
    ],
  ] as const)(
    '%s: shows what the agent said of its machine, and low disk space',
    async (lang, system, details, lowDisk) => {
      await resetEnvironment(lang);
      await openAgents(ALL, { lang, agents: [withFacts, agente02] });
      const table = await screen.findByRole('table', { name: /Agentes|Agents/ });
      const [, first, second] = within(table).getAllByRole('row');
      const facts = within(first!).getByTestId('agent-facts');
      expect(facts).toHaveTextContent(system);
      expect(facts).toHaveTextContent(details);
      expect(within(first!).getByTestId('agent-low-disk')).toHaveTextContent(lowDisk);
      // Never said hello with facts: a dash, and no warning.
      expect(within(second!).queryByTestId('agent-facts')).not.toBeInTheDocument();
      expect(within(second!).queryByTestId('agent-low-disk')).not.toBeInTheDocument();
    },
  );

  it('offers Download agent to whoever sees agents, without any token', async () => {
    const { user, calls } = await openAgents(['AGENTES.LIST']);
    await user.click(await screen.findByRole('button', { name: 'Baixar agente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Baixar agente' });
    expect(await within(dialog).findByText('3.2.0')).toBeInTheDocument();
    expect(within(dialog).getByTestId('agent-install-token')).toHaveTextContent('<agent token>');
    expect(callsTo(calls, '/agent/download/api/v1/index')).toHaveLength(1);
  });

  it('from a new agent’s token, installs with that token written to the token file', async () => {
    const { user } = await openAgents(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo agente' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo agente' });
    await user.type(within(drawer).getByRole('textbox', { name: /Nome/ }), 'agente-03');
    await user.click(within(drawer).getByRole('combobox', { name: /VM/ }));
    await user.click(await screen.findByRole('option', { name: 'vm-rh' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar agente' }));
    const modal = await screen.findByRole('dialog', { name: 'Token do agente “agente-03”' });
    await user.click(within(modal).getByRole('button', { name: 'Baixar e instalar o agente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instalar o agente “agente-03”' });
    expect(within(dialog).getByTestId('agent-install-token')).toHaveTextContent(
      "sudo install -D -m 600 /dev/stdin /etc/rota-agent/token <<'EOF' tok_created_123 EOF",
    );
    expect(within(dialog).getByTestId('agent-install-install')).toHaveTextContent(
      `--server ${window.location.origin} --token-file /etc/rota-agent/token`,
    );
  });

  it('refreshes connectivity and last seen when an agent event arrives', async () => {
    const { calls } = await openAgents(['AGENTES.LIST']);
    await screen.findByRole('table', { name: 'Agentes' });
    await waitFor(() => expect(live.connections).toBe(1));
    const before = callsTo(calls, '/node/api/v1/index').length;
    live.send({ type: 'agent', rota_nodes_id: 2, connectivity: 'active' });
    await waitFor(() => expect(callsTo(calls, '/node/api/v1/index')).toHaveLength(before + 1));
  });
});
