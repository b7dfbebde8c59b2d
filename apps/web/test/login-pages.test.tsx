import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { forbidFetch, mockFetch } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

beforeEach(async () => {
  await resetEnvironment('pt');
});

function notices() {
  return notificationsStore.getState().notifications;
}

describe('recover-password page', () => {
  it('validates the email with the contract messages', async () => {
    const { calls } = forbidFetch();
    const { user } = renderWithRouter({ path: '/login/recover-password' });
    await user.click(await screen.findByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText('E-mail obrigatório')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^E-mail/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText('E-mail inválido')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('posts the email and shows the neutral answer of the server', async () => {
    const neutral = 'Se o e-mail pertence a uma conta, uma mensagem está a caminho.';
    const { calls } = mockFetch(() => ({ status: 200, body: { message: neutral } }));
    const { user } = renderWithRouter({ path: '/login/recover-password' });
    await user.type(await screen.findByLabelText(/^E-mail/), ' Ana@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText(neutral)).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/user/api/auth/v1/recover-password');
    expect(calls[0]?.body).toEqual({ email: 'ana@example.com' });
    expect(screen.getByRole('link', { name: 'Voltar para o login' })).toHaveAttribute(
      'href',
      '/login/sign-in',
    );
  });
});

describe('change-password page', () => {
  it('without a code goes back to recover-password, saying why', async () => {
    const { calls } = forbidFetch();
    const { router } = renderWithRouter({ path: '/login/change-password' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/recover-password'));
    expect(notices()[0]).toMatchObject({ color: 'red', message: 'O código é inválido ou expirou' });
    expect(calls).toHaveLength(0);
  });

  it('checks the code on load; an invalid one goes back to recover-password', async () => {
    const { calls } = mockFetch(() => ({
      status: 400,
      body: { code: 'code_invalid', message: 'O código é inválido ou expirou' },
    }));
    const { router } = renderWithRouter({ path: '/login/change-password?code=old' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/recover-password'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/user/api/auth/v1/check-code');
    expect(calls[0]?.body).toEqual({ code: 'old' });
    expect(await screen.findByText('O código é inválido ou expirou')).toBeInTheDocument();
  });

  it('with a valid code asks for the new password once, resets it and goes to sign-in', async () => {
    const { calls } = mockFetch(({ url }) =>
      url.endsWith('/check-code')
        ? { status: 200, body: { message: 'O código é válido' } }
        : { status: 200, body: { message: 'Senha alterada. Você já pode entrar.' } },
    );
    const { user, router } = renderWithRouter({ path: '/login/change-password?code=abc123' });
    const submit = await screen.findByRole('button', { name: 'Salvar nova senha' });
    // Code and password; no second field to type it again.
    expect(screen.queryByLabelText(/^Confirme a nova senha/)).not.toBeInTheDocument();

    await user.click(submit);
    expect(await screen.findAllByText('Senha obrigatória')).toHaveLength(1);

    await user.type(screen.getByLabelText(/^Nova senha/), 'short');
    await user.click(submit);
    expect(await screen.findByText('A senha deve ter pelo menos 8 caracteres')).toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Nova senha/));
    await user.type(screen.getByLabelText(/^Nova senha/), 'long-enough-1');
    await user.click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/sign-in'));
    const reset = calls.find((call) => call.url.endsWith('/reset-password'));
    expect(reset?.body).toEqual({ code: 'abc123', password: 'long-enough-1' });
    expect(notices()[0]).toMatchObject({
      color: 'teal',
      message: 'Senha alterada. Você já pode entrar.',
    });
  });

  it('shows a rule on the new password from the server in English', async () => {
    await resetEnvironment('en');
    mockFetch(({ url }) =>
      url.endsWith('/check-code')
        ? { status: 200, body: { message: 'ok' } }
        : {
            status: 400,
            body: {
              code: 'validation_failed',
              message: 'Invalid fields',
              errors: [{ field: 'password', message: 'Password is too long' }],
            },
          },
    );
    const { user, router } = renderWithRouter({ path: '/login/change-password?code=abc123' });
    await user.type(await screen.findByLabelText(/^New password/), 'long-enough-1');
    expect(screen.queryByLabelText(/^Confirm the new password/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Password is too long')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login/change-password');
  });

  it('goes back to recover-password when the reset fails', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/check-code')
        ? { status: 200, body: { message: 'ok' } }
        : {
            status: 400,
            body: { code: 'code_invalid', message: 'O código é inválido ou expirou' },
          },
    );
    const { user, router } = renderWithRouter({ path: '/login/change-password?code=abc123' });
    await user.type(await screen.findByLabelText(/^Nova senha/), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/recover-password'));
    expect(notices()[0]).toMatchObject({ color: 'red', message: 'O código é inválido ou expirou' });
  });
});

describe('request-access page', () => {
  it('requires a name, an email and the client name', async () => {
    const { calls } = forbidFetch();
    const { user } = renderWithRouter({ path: '/login/request-access' });
    await user.click(await screen.findByRole('button', { name: 'Enviar pedido' }));
    // The company has its own message, not a second "Nome obrigatório".
    expect(await screen.findAllByText('Nome obrigatório')).toHaveLength(1);
    expect(screen.getByText('Empresa obrigatória')).toBeInTheDocument();
    expect(screen.getByText('E-mail obrigatório')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says an empty company in English too', async () => {
    await resetEnvironment('en');
    forbidFetch();
    const { user } = renderWithRouter({ path: '/login/request-access' });
    await user.click(await screen.findByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Required company')).toBeInTheDocument();
    expect(screen.getByText('Required name')).toBeInTheDocument();
  });

  it('posts the request and shows the answer of the server', async () => {
    const answer = 'Obrigado. Um administrador vai analisar seu pedido.';
    const { calls } = mockFetch(() => ({ status: 200, body: { message: answer } }));
    const { user } = renderWithRouter({ path: '/login/request-access' });
    await user.type(await screen.findByLabelText(/^Nome/), 'Bia Lima');
    await user.type(screen.getByLabelText(/^E-mail/), 'bia@example.com');
    await user.type(screen.getByLabelText(/^Empresa/), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Enviar pedido' }));
    expect(await screen.findByText(answer)).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/user/api/auth/v1/request-access');
    expect(calls[0]?.body).toEqual({
      name: 'Bia Lima',
      email: 'bia@example.com',
      client_name: 'Acme',
    });
  });
});
