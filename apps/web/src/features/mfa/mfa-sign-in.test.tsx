// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, type MfaChallengeResponse, type MfaEnrolment } from '@rota/contract';
import { makeSession } from '../../../test/fixtures';
import { mockFetch, type MockCall, type MockReply } from '../../../test/http-mock';
import { callsTo } from '../../../test/operations-fixtures';
import { renderWithRouter, resetEnvironment } from '../../../test/render';

const CHALLENGE: MfaChallengeResponse = {
  mfa_required: true,
  challenge: 'challenge-abc',
  enrolment_required: false,
  expires_in: 300,
};
const ENROLMENT: MfaEnrolment = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Rota:ana%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Rota',
  qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
const session = makeSession({ token: 'mfa-token' });

beforeEach(() => {
  // The plain client leaves the sign-in page alone on 401 only when it is the current page.
  window.history.replaceState({}, '', '/login/sign-in');
});

/** Password accepted with a challenge; the second step answers with `second`. */
async function signInWithPassword(
  lang: 'pt' | 'en',
  second: (call: MockCall) => MockReply | undefined,
  challenge: MfaChallengeResponse = CHALLENGE,
) {
  await resetEnvironment(lang);
  const { calls } = mockFetch((call) => {
    if (call.url.endsWith('/user/api/auth/v1/session')) return { status: 200, body: challenge };
    const reply = second(call);
    if (reply) return reply;
    // After sign-in, whatever the next page asks: the signed-in user.
    return { status: 200, body: { ...session, token: undefined, avatar: null } };
  });
  const view = renderWithRouter({ path: '/login/sign-in' });
  const pt = lang === 'pt';
  await view.user.type(
    await screen.findByLabelText(pt ? /Acesso ou e-mail/ : /Access or email/),
    'ana',
  );
  await view.user.type(screen.getByLabelText(pt ? /^Senha/ : /^Password/), 'right-password');
  await view.user.click(screen.getByRole('button', { name: pt ? 'Entrar' : 'Sign in' }));
  return { ...view, calls };
}

describe('sign-in with a second factor', { timeout: 30_000 }, () => {
  it('asks for the code after the password, shows a wrong one in place, then signs in (pt)', async () => {
    let attempts = 0;
    const { user, router, calls } = await signInWithPassword('pt', (call) => {
      if (!call.url.endsWith('/user/api/auth/v1/mfa')) return undefined;
      attempts += 1;
      return attempts === 1
        ? {
            status: 400,
            body: {
              code: 'invalid_mfa_code',
              message: 'Dados inválidos',
              errors: [{ field: 'code', message: 'invalid_mfa_code' }],
            },
          }
        : { status: 200, body: session };
    });
    const code = await screen.findByLabelText('Código de verificação');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(
      await screen.findByText('Digite o código do seu aplicativo autenticador'),
    ).toBeInTheDocument();

    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(
      await screen.findByText('O código não é válido. Confira a hora do celular e tente de novo.'),
    ).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Código de verificação'));
    await user.type(screen.getByLabelText('Código de verificação'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(Cookies.get(SESSION_COOKIE)).toBe('mfa-token');
    expect(callsTo(calls, '/user/api/auth/v1/mfa').at(-1)?.body).toEqual({
      challenge: 'challenge-abc',
      code: '123456',
    });
  });

  it('takes a recovery code instead (en)', async () => {
    const { user, router, calls } = await signInWithPassword('en', (call) =>
      call.url.endsWith('/user/api/auth/v1/mfa') ? { status: 200, body: session } : undefined,
    );
    await screen.findByLabelText('Verification code');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const input = await screen.findByLabelText('Recovery code');
    expect(input).toHaveAttribute('autocomplete', 'off');
    expect(input).toHaveAttribute('inputmode', 'text');
    await user.type(input, 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo(calls, '/user/api/auth/v1/mfa')[0]?.body).toEqual({
      challenge: 'challenge-abc',
      code: 'abcde-12345',
    });
  });

  it('offers the way back to the password when the challenge expired (en)', async () => {
    const { user } = await signInWithPassword('en', (call) =>
      call.url.endsWith('/user/api/auth/v1/mfa')
        ? {
            status: 401,
            body: {
              code: 'mfa_challenge_expired',
              message: 'This sign-in has expired. Enter your password again.',
            },
          }
        : undefined,
    );
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in has expired. Enter your password again.',
    );
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText(/Access or email/)).toHaveValue('ana');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
  });

  it('enrols first when a client requires it, shows the recovery codes once, then goes in (pt)', async () => {
    const { user, router, calls } = await signInWithPassword(
      'pt',
      (call) => {
        if (call.url.endsWith('/user/api/auth/v1/mfa/enrol/start'))
          return { status: 200, body: ENROLMENT };
        if (call.url.endsWith('/user/api/auth/v1/mfa/enrol/confirm'))
          return { status: 200, body: { ...session, recovery_codes: CODES } };
        return undefined;
      },
      { ...CHALLENGE, enrolment_required: true },
    );
    const qr = await screen.findByRole('img', {
      name: 'QR code para adicionar o Rota a um aplicativo autenticador',
    });
    expect(qr).toHaveAttribute('src', ENROLMENT.qr_code);
    expect(screen.getByLabelText('Chave secreta')).toHaveValue('JBSWY3DPEHPK3PXP');
    expect(callsTo(calls, '/mfa/enrol/start')[0]?.body).toEqual({ challenge: 'challenge-abc' });

    await user.type(screen.getByLabelText(/^Código do aplicativo/), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));
    const list = await screen.findByRole('list', { name: 'Códigos de recuperação' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(callsTo(calls, '/mfa/enrol/confirm')[0]?.body).toEqual({
      challenge: 'challenge-abc',
      code: '654321',
    });
    expect(screen.getByRole('button', { name: 'Baixar (.txt)' })).toBeInTheDocument();
    // Not in yet: the codes first.
    expect(router.state.location.pathname).toBe('/login/sign-in');
    await user.click(screen.getByRole('button', { name: 'Já guardei, continuar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(Cookies.get(SESSION_COOKIE)).toBe('mfa-token');
  });
});
