import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTE_PERMISSIONS } from '@rota/contract';
import { SHELL_PAGES } from '../src/app/routes';
import { setToken } from '../src/lib/session';
import { makeDashboard } from './activity-fixtures';
import { makeUser } from './fixtures';
import { forbidFetch, mockFetch } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

beforeEach(async () => {
  await resetEnvironment('pt');
});

/**
 * The dashboard's own calls: its figures, and the status palette its badges colour by (an empty
 * palette: the default colours). Anything else is `other`.
 */
function dashboardOr(url: string, other: () => { status: number; body: unknown }) {
  if (url.endsWith('/dashboard/api/v1/index'))
    return { status: 200, body: { data: makeDashboard() } };
  if (url.endsWith('/status/item/api/v1/palette')) return { status: 200, body: { data: [] } };
  return other();
}

describe('routes without a session', () => {
  it.each([
    ['/', '/login/sign-in', ''],
    ['/dashboard', '/login/sign-in', ''],
    ['/robot?page=2', '/login/sign-in', '?redirect=%2Frobot%3Fpage%3D2'],
    // Unknown addresses are the shell's now (a not-found page): sign in, then see it.
    ['/no/such/page', '/login/sign-in', '?redirect=%2Fno%2Fsuch%2Fpage'],
    ['/login', '/login/sign-in', ''],
  ])('%s goes to sign-in without calling the API', async (path, pathname, search) => {
    const { calls } = forbidFetch();
    const { router } = renderWithRouter({ path });
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(pathname);
    expect(router.state.location.search).toBe(search);
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['/login/sign-in', 'Acesse sua conta'],
    ['/login/recover-password', 'Recuperar senha'],
    ['/login/request-access', 'Solicitar acesso'],
  ])('%s renders bare and does not ask for the user, even with a cookie', async (path, title) => {
    setToken('token');
    const { calls } = forbidFetch();
    renderWithRouter({ path });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Idioma' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('shell', () => {
  it('routes every console route of the contract, and only those', () => {
    expect(SHELL_PAGES.map((page) => page.route).sort()).toEqual(
      Object.keys(ROUTE_PERMISSIONS).sort(),
    );
  });

  it('shows the header, the sidebar and the page header once the user loads', async () => {
    setToken('token');
    const { calls } = mockFetch(({ url }) =>
      dashboardOr(url, () => ({ status: 200, body: makeUser({ permissions: ['ROBOS.LIST'] }) })),
    );
    renderWithRouter({ path: '/' });

    expect(await screen.findByRole('heading', { name: 'Início', level: 1 })).toBeInTheDocument();
    expect(
      screen.getByText('Visão geral das execuções dos robôs do cliente selecionado.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Abrir ou fechar o menu' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rota' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Idioma' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Alternar tema claro e escuro' }),
    ).toBeInTheDocument();
    const userMenu = screen.getByRole('button', { name: 'Menu do usuário' });
    expect(within(userMenu).getByText('Ana Souza')).toBeInTheDocument();
    expect(within(userMenu).getByText('AS')).toBeInTheDocument();
    expect(screen.getByText('Versão 3.0.1')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' });
    expect(within(nav).getByRole('link', { name: 'Robôs' })).toHaveAttribute('href', '/robot');
    // One client: no selector.
    expect(screen.queryByRole('combobox', { name: 'Cliente' })).not.toBeInTheDocument();
    // The shell asks for the user once; then the home page asks for its figures, and the live
    // updates stream opens.
    expect(calls[0]?.url).toBe('/api/user/api/auth/v1/me');
    expect(calls.filter((call) => call.url.includes('/auth/'))).toHaveLength(1);
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token');
  });

  it.each([
    ['/activity', 'HISTORIC.LIST', 'Atividades'],
    ['/parameter', 'PARAMETROS.LIST', 'Parâmetros'],
    ['/robot/field', 'ROBOS.LIST', 'Campos do robô'],
    ['/task', 'ATIVIDADES.LIST', 'Tarefas'],
    ['/scheduling', 'AGENDAMENTOS.LIST', 'Agendamentos'],
    ['/scheduling/calendar', 'AGENDAMENTOS.LIST', 'Calendários de dias úteis'],
    ['/node', 'AGENTES.LIST', 'Agentes'],
    ['/vm', 'AGENTES.LIST', 'Máquinas virtuais'],
    ['/env', 'USUARIOS.LIST', 'Ambiente'],
    ['/user', 'USUARIOS.LIST', 'Usuários'],
    ['/team', 'USUARIOS.LIST', 'Equipes'],
    ['/connector', 'USUARIOS.LIST', 'Item de configuração'],
    // Both routes name the configuration items: one page.
    ['/configuration', 'USUARIOS.LIST', 'Item de configuração'],
    ['/audit', 'USUARIOS.LIST', 'Log de auditoria'],
  ])('%s needs %s and then shows its header', async (path, permission, title) => {
    setToken('token');
    mockFetch(({ url }) =>
      dashboardOr(url, () => ({ status: 200, body: makeUser({ permissions: [permission] }) })),
    );
    renderWithRouter({ path });
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('O acesso a pagina foi negado!')).not.toBeInTheDocument();
  });

  it('denies a page without its permission, inside the shell', async () => {
    setToken('token');
    mockFetch(() => ({ status: 200, body: makeUser({ permissions: ['ROBOS.LIST'] }) }));
    renderWithRouter({ path: '/user' });
    expect(await screen.findByText('O acesso a pagina foi negado!')).toBeInTheDocument();
    expect(screen.getByText('Você não tem autorização!')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Usuários', level: 1 })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation')).toBeInTheDocument();
  });

  it('shows the client selector to a user of two clients', async () => {
    setToken('token');
    mockFetch(({ url }) =>
      dashboardOr(url, () => ({
        status: 200,
        body: makeUser({
          clients: [
            { rota_clients_id: 1, name: 'Acme' },
            { rota_clients_id: 2, name: 'Beta' },
          ],
        }),
      })),
    );
    renderWithRouter({ path: '/dashboard' });
    expect(await screen.findByRole('combobox', { name: 'Cliente' })).toHaveValue('Acme');
  });

  it('offers a retry when the user cannot be loaded', async () => {
    setToken('token');
    let fail = true;
    mockFetch(({ url }) => {
      if (fail) return { status: 500, body: { code: 'internal_error', message: 'boom' } };
      return dashboardOr(url, () => ({ status: 200, body: makeUser() }));
    });
    const { user } = renderWithRouter({ path: '/dashboard' });
    expect(await screen.findByText('Não foi possível carregar seu usuário.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Início', level: 1 })).toBeInTheDocument();
  });
});

describe('forced password change', () => {
  it('replaces every page until the password is changed', async () => {
    setToken('token');
    let mustChange = true;
    const { calls } = mockFetch(({ url }) => {
      if (url.endsWith('/me')) {
        return {
          status: 200,
          body: makeUser({ permissions: ['ROBOS.LIST'], password_change_required: mustChange }),
        };
      }
      if (url.endsWith('/update/password')) {
        mustChange = false;
        return { status: 204 };
      }
      throw new Error(`unexpected ${url}`);
    });
    const { user } = renderWithRouter({ path: '/robot' });

    expect(
      await screen.findByRole('heading', { name: 'Defina uma nova senha' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Robôs', level: 1 })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText('Senha atual obrigatória')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Senha atual/), 'old-password');
    await user.type(screen.getByLabelText(/^Nova senha/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Confirme a nova senha/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText('As senhas devem ser iguais')).toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Confirme a nova senha/));
    await user.type(screen.getByLabelText(/^Confirme a nova senha/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));

    expect(await screen.findByRole('heading', { name: 'Robôs', level: 1 })).toBeInTheDocument();
    const update = calls.find((call) => call.url.endsWith('/update/password'));
    expect(update?.method).toBe('PUT');
    expect(update?.body).toEqual({
      current_password: 'old-password',
      password: 'new-password-1',
      confirm_password: 'new-password-1',
    });
    expect(await screen.findByText('Senha alterada')).toBeInTheDocument();
  });

  it('puts a wrong current password under its field', async () => {
    setToken('token');
    mockFetch(({ url }) =>
      url.endsWith('/me')
        ? { status: 200, body: makeUser({ password_change_required: true }) }
        : {
            status: 400,
            body: {
              code: 'invalid_input',
              message: 'Alguns campos não são válidos',
              errors: [{ field: 'current_password', message: 'A senha atual não está correta' }],
            },
          },
    );
    const { user } = renderWithRouter({ path: '/dashboard' });
    await screen.findByRole('heading', { name: 'Defina uma nova senha' });
    await user.type(screen.getByLabelText(/^Senha atual/), 'wrong-password');
    await user.type(screen.getByLabelText(/^Nova senha/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Confirme a nova senha/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText('A senha atual não está correta')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Erro')).not.toBeInTheDocument());
  });
});
