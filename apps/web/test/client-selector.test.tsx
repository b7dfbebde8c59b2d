import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TIMINGS } from '@rota/contract';
import { ClientSelector } from '../src/features/shell/components/client-selector';
import { setReloader } from '../src/lib/navigation';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { forbidFetch, mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

const twoClients = makeUser({
  clients: [
    { rota_clients_id: 1, name: 'Acme' },
    { rota_clients_id: 2, name: 'Beta' },
  ],
  rota_clients_id_selected: 1,
});

let reload: ReturnType<typeof vi.fn<() => void>>;

beforeEach(async () => {
  await resetEnvironment('pt');
  setToken('token');
  reload = vi.fn<() => void>();
  setReloader(reload);
});

describe('client selector', () => {
  it('is absent for a user of a single client', () => {
    forbidFetch();
    renderElement(<ClientSelector user={makeUser()} />);
    expect(screen.queryByRole('combobox', { name: 'Cliente' })).not.toBeInTheDocument();
  });

  it('shows the selected client to a user of two clients, labelled "Cliente"', async () => {
    forbidFetch();
    renderElement(<ClientSelector user={twoClients} />);
    expect(await screen.findByRole('combobox', { name: 'Cliente' })).toHaveValue('Acme');
  });

  it('is labelled "Client" in English', async () => {
    await resetEnvironment('en');
    forbidFetch();
    renderElement(<ClientSelector user={twoClients} />);
    expect(await screen.findByRole('combobox', { name: 'Client' })).toBeInTheDocument();
  });

  it('saves a change and reloads the page', async () => {
    const { calls } = mockFetch(() => ({ status: 204 }));
    const { user } = renderElement(<ClientSelector user={twoClients} />);
    await user.click(await screen.findByRole('combobox', { name: 'Cliente' }));
    await user.click(await screen.findByRole('option', { name: 'Beta' }));

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('PUT');
    expect(calls[0]?.url).toBe('/api/user/api/v1/client_select');
    expect(calls[0]?.body).toEqual({ users_id: 7, rota_clients_id_selected: 2 });
  });

  it('reports a failure in a long-lived closable toast titled "Erro", without reloading', async () => {
    mockFetch(() => ({
      status: 403,
      body: { code: 'client_not_member', message: 'Você não pertence a este cliente' },
    }));
    const { user } = renderElement(<ClientSelector user={twoClients} />);
    await user.click(await screen.findByRole('combobox', { name: 'Cliente' }));
    await user.click(await screen.findByRole('option', { name: 'Beta' }));

    expect(await screen.findByText('Você não pertence a este cliente !')).toBeInTheDocument();
    const notices = notificationsStore.getState().notifications;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      title: 'Erro',
      position: 'bottom-left',
      withCloseButton: true,
      autoClose: TIMINGS.errorToastMs,
    });
    expect(reload).not.toHaveBeenCalled();
  });
});
