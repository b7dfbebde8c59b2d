import type { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authKeys } from '../src/features/auth/api/keys';
import { PermissionGuard } from '../src/features/shell/components/permission-guard';
import { setToken } from '../src/lib/session';
import { createQueryClient } from '../src/lib/query-client';
import { makeUser } from './fixtures';
import { forbidFetch, mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

function clientWith(permissions: string[]): QueryClient {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authKeys.me(), makeUser({ permissions }));
  return queryClient;
}

const page = <p>robots page</p>;

beforeEach(() => {
  setToken('token');
});

describe('permission guard', () => {
  it('denies in Portuguese a page the user lacks permissions for', async () => {
    await resetEnvironment('pt');
    setToken('token');
    forbidFetch();
    renderElement(<PermissionGuard route="/robot">{page}</PermissionGuard>, {
      queryClient: clientWith(['AGENTES.LIST']),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('O acesso a pagina foi negado!');
    expect(alert).toHaveTextContent('Você não tem autorização!');
    expect(screen.queryByText('robots page')).not.toBeInTheDocument();
  });

  it('denies in English', async () => {
    await resetEnvironment('en');
    setToken('token');
    forbidFetch();
    renderElement(<PermissionGuard route="/user">{page}</PermissionGuard>, {
      queryClient: clientWith(['ROBOS.LIST']),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Access to the page has been denied!');
    expect(alert).toHaveTextContent('You do not have authorization!');
  });

  it('shows the page when the user holds every permission it needs', async () => {
    await resetEnvironment('pt');
    setToken('token');
    forbidFetch();
    renderElement(<PermissionGuard route="/robot">{page}</PermissionGuard>, {
      queryClient: clientWith(['ROBOS.LIST']),
    });
    expect(await screen.findByText('robots page')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lets any signed-in user into the dashboard', async () => {
    await resetEnvironment('pt');
    setToken('token');
    forbidFetch();
    renderElement(<PermissionGuard route="/dashboard">{page}</PermissionGuard>, {
      queryClient: clientWith([]),
    });
    expect(await screen.findByText('robots page')).toBeInTheDocument();
  });

  it('shows a skeleton while the user loads, then decides', async () => {
    await resetEnvironment('pt');
    setToken('token');
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    mockFetch(() => new Promise((resolve) => (answer = resolve)));
    renderElement(<PermissionGuard route="/robot">{page}</PermissionGuard>);
    expect(await screen.findByRole('status', { name: 'Carregando…' })).toBeInTheDocument();
    answer({ status: 200, body: makeUser({ permissions: ['ROBOS.LIST'] }) });
    expect(await screen.findByText('robots page')).toBeInTheDocument();
  });

  it('denies when nobody is signed in', async () => {
    await resetEnvironment('pt');
    const { calls } = forbidFetch();
    renderElement(<PermissionGuard route="/dashboard">{page}</PermissionGuard>);
    expect(await screen.findByRole('alert')).toHaveTextContent('O acesso a pagina foi negado!');
    expect(calls).toHaveLength(0);
  });
});
