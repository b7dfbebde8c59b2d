import { AppShell } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeResponse, Permission } from '@rota/contract';
import { Sidebar } from '../src/features/shell/components/sidebar';
import { clientsProbe } from './admin-fixtures';
import { makeUser } from './fixtures';
import { mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

function renderSidebar(user: MeResponse | undefined, path = '/dashboard') {
  const onNavigate = vi.fn();
  const view = renderElement(
    <AppShell navbar={{ width: 260, breakpoint: 'lg' }}>
      <AppShell.Navbar>
        <Sidebar user={user} onNavigate={onNavigate} />
      </AppShell.Navbar>
    </AppShell>,
    { path },
  );
  return { ...view, onNavigate };
}

function linkNames(): string[] {
  const nav = screen.getByRole('navigation');
  return within(nav)
    .queryAllByRole('link')
    .map((link) => link.textContent ?? '');
}

/** The clients `index` tells platform administrators (200) from everybody else (403). */
function answerClientsProbe(admin: boolean) {
  const probe = clientsProbe(admin);
  return mockFetch((call) => probe(call) ?? { status: 404, body: { message: 'Not found' } });
}

beforeEach(async () => {
  await resetEnvironment('pt');
  answerClientsProbe(false);
});

describe('sidebar', () => {
  it('is titled "Control room" and shows the version', async () => {
    renderSidebar(makeUser());
    expect(await screen.findByRole('heading', { name: 'Control room' })).toBeInTheDocument();
    expect(screen.getByText('Versão 3.0.1')).toBeInTheDocument();
  });

  it('shows a skeleton, and no link, while the user loads', async () => {
    renderSidebar(undefined);
    expect(await screen.findByRole('status', { name: 'Carregando…' })).toBeInTheDocument();
    expect(linkNames()).toEqual([]);
  });

  it('shows only Home to a user without permissions, and no Configuration', async () => {
    renderSidebar(makeUser({ permissions: [] }));
    await screen.findByRole('navigation');
    expect(linkNames()).toEqual(['Início']);
    expect(screen.queryByRole('button', { name: 'Configuração' })).not.toBeInTheDocument();
  });

  it('hides each link the user lacks the permission for', async () => {
    renderSidebar(makeUser({ permissions: ['ROBOS.LIST', 'AGENTES.LIST', 'HISTORIC.LIST'] }));
    await screen.findByRole('navigation');
    // AGENTES.LIST also lists VMs, nested under Agents.
    expect(linkNames()).toEqual(['Início', 'Atividades', 'Robôs', 'Agentes', 'VMs']);
    expect(screen.getByRole('link', { name: 'Robôs' })).toHaveAttribute('href', '/robot');
    expect(screen.getByRole('link', { name: 'Agentes' })).toHaveAttribute('href', '/node');
    expect(screen.queryByRole('link', { name: 'Parâmetros' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Configuração' })).not.toBeInTheDocument();
  });

  it('shows Configuration with USUARIOS.LIST, closed until clicked', async () => {
    const { user } = renderSidebar(makeUser({ permissions: ['USUARIOS.LIST'] }));
    const toggle = await screen.findByRole('button', { name: 'Configuração' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(linkNames()).toEqual(['Início']);

    await user.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await screen.findByRole('link', { name: 'Ambiente' });
    expect(linkNames()).toEqual([
      'Início',
      'Ambiente',
      'Usuários',
      'Equipes',
      'Item de configuração',
      'Log de auditoria',
      'Alertas',
      'Fluxos de logs',
    ]);
    expect(screen.getByRole('link', { name: 'Log de auditoria' })).toHaveAttribute(
      'href',
      '/audit',
    );
    expect(screen.getByRole('link', { name: 'Item de configuração' })).toHaveAttribute(
      'href',
      '/connector',
    );
  });

  it('opens Configuration when the page shown is one of its entries', async () => {
    renderSidebar(makeUser({ permissions: ['USUARIOS.LIST'] }), '/team');
    const toggle = await screen.findByRole('button', { name: 'Configuração' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Equipes' })).toHaveAttribute('aria-current', 'page');
  });

  it('lists every entry for a user holding every list permission, in English', async () => {
    await resetEnvironment('en');
    renderSidebar(
      makeUser({
        permissions: [
          'HISTORIC.LIST',
          'PARAMETROS.LIST',
          'ROBOS.LIST',
          'AGENDAMENTOS.LIST',
          'AGENTES.LIST',
          'USUARIOS.LIST',
        ],
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Configuration' }));
    await screen.findByRole('link', { name: 'Environment' });
    expect(linkNames()).toEqual([
      'Home',
      'Activity',
      'Parameters',
      'Robots',
      'Schedulings',
      'Calendars',
      'Agents',
      'VMs',
      'Environment',
      'Users',
      'Teams',
      'Configuration item',
      'Audit log',
      'Alerts',
      'Log streams',
    ]);
  });

  it('adds Clients and its single sign-on page under Configuration for a platform administrator', async () => {
    const { calls } = answerClientsProbe(true);
    const { user } = renderSidebar(makeUser({ permissions: ['USUARIOS.LIST'] }));
    await user.click(await screen.findByRole('button', { name: 'Configuração' }));
    expect(await screen.findByRole('link', { name: 'Clientes' })).toHaveAttribute(
      'href',
      '/client',
    );
    expect(linkNames()).toEqual([
      'Início',
      'Ambiente',
      'Usuários',
      'Equipes',
      'Item de configuração',
      'Clientes',
      // Single sign-on group mappings, under Clients.
      'Login único',
      'Log de auditoria',
      'Alertas',
      'Fluxos de logs',
    ]);
    expect(calls.filter((call) => call.url.endsWith('/rota/client/api/v1/index'))).toHaveLength(1);
  });

  it('leaves Clients out for anybody else', async () => {
    const { calls } = answerClientsProbe(false);
    const { user } = renderSidebar(makeUser({ permissions: ['USUARIOS.LIST'] }));
    await user.click(await screen.findByRole('button', { name: 'Configuração' }));
    await screen.findByRole('link', { name: 'Log de auditoria' });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'Clientes' })).not.toBeInTheDocument();
  });

  it('does not ask about clients without the users list permission', async () => {
    const { calls } = answerClientsProbe(true);
    renderSidebar(makeUser({ permissions: ['ROBOS.LIST'] }));
    await screen.findByRole('link', { name: 'Robôs' });
    expect(calls).toHaveLength(0);
  });

  it('marks the current page and reports navigations (to close the drawer)', async () => {
    const { user, onNavigate, router } = renderSidebar(
      makeUser({ permissions: ['ROBOS.LIST'] }),
      '/robot/field',
    );
    const robots = await screen.findByRole('link', { name: 'Robôs' });
    expect(robots).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('link', { name: 'Início' }));
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('marks Calendars, not Schedulings, on the calendars page under it', async () => {
    renderSidebar(makeUser({ permissions: ['AGENDAMENTOS.LIST'] }), '/scheduling/calendar');
    const calendars = await screen.findByRole('link', { name: 'Calendários' });
    expect(calendars).toHaveAttribute('href', '/scheduling/calendar');
    expect(calendars).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Agendamentos' })).not.toHaveAttribute('aria-current');
  });
});

// Tasks (nested under Robots) and VMs (nested under Agents), each with its permission.
describe('sidebar: Tasks under Robots, VMs under Agents', () => {
  const show = (permissions: Permission[], path?: string) =>
    renderSidebar(makeUser({ permissions }), path);
  const names = linkNames;

  it('shows each with its permission, nested after its parent (pt)', async () => {
    show(['ROBOS.LIST', 'ATIVIDADES.LIST', 'AGENTES.LIST']);
    await screen.findByRole('navigation');
    expect(names()).toEqual(['Início', 'Robôs', 'Tarefas', 'Agentes', 'VMs']);
    expect(screen.getByRole('link', { name: 'Tarefas' })).toHaveAttribute('href', '/task');
    expect(screen.getByRole('link', { name: 'VMs' })).toHaveAttribute('href', '/vm');
  });

  it('hides Tasks without ATIVIDADES.LIST and VMs without AGENTES.LIST (en)', async () => {
    await resetEnvironment('en');
    show(['ROBOS.LIST']);
    await screen.findByRole('navigation');
    expect(names()).toEqual(['Home', 'Robots']);
  });

  it('keeps Tasks current on a task’s page (en)', async () => {
    await resetEnvironment('en');
    show(['ATIVIDADES.LIST', 'AGENTES.LIST'], '/task/7');
    await waitFor(() => expect(names()).toEqual(['Home', 'Tasks', 'Agents', 'VMs']));
    // A task's page keeps Tasks current, not Robots.
    expect(screen.getByRole('link', { name: 'Tasks' })).toHaveAttribute('aria-current', 'page');
  });
});
