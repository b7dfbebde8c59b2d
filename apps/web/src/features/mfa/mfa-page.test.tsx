// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, MfaEnrolment, MfaStatus } from '@rota/contract';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, openPage } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const BASE = '/user/mfa/api/v1';
const ENROLMENT: MfaEnrolment = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Rota:ana%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Rota',
  qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
const OFF: MfaStatus = {
  enabled: false,
  enabled_at: null,
  recovery_codes_left: 0,
  required: false,
};
const ON: MfaStatus = {
  enabled: true,
  enabled_at: '2026-11-20T10:00:00.000Z',
  recovery_codes_left: 7,
  required: false,
};
const WRONG_CODE: MockReply = {
  status: 400,
  body: {
    code: 'invalid_mfa_code',
    message: 'Invalid input',
    errors: [{ field: 'code', message: 'invalid_mfa_code' }],
  },
};

async function openMfa(
  lang: Language,
  status: () => MfaStatus,
  reply: (call: MockCall) => MockReply | undefined = () => undefined,
) {
  return openPage(
    '/account/two-step',
    /^(Verificação em duas etapas|Two-step verification)$/,
    [],
    (call) => {
      if (call.url.endsWith(`${BASE}/status`)) return { status: 200, body: status() };
      return reply(call);
    },
    lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/account/two-step', { timeout: 30_000 }, () => {
  it('sets the factor up: QR code, secret, one code, then the recovery codes once (pt)', async () => {
    let state = OFF;
    const { user, calls } = await openMfa(
      'pt',
      () => state,
      (call) => {
        if (call.url.endsWith(`${BASE}/enrol/start`)) return { status: 200, body: ENROLMENT };
        if (call.url.endsWith(`${BASE}/enrol/confirm`)) {
          if ((call.body as { code: string }).code !== '123456') return WRONG_CODE;
          state = { ...ON, recovery_codes_left: 10 };
          return { status: 200, body: { recovery_codes: CODES } };
        }
        return undefined;
      },
    );
    expect(
      await screen.findByText('A verificação em duas etapas está desativada'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Configurar' }));

    const qr = await screen.findByRole('img', {
      name: 'QR code para adicionar o Rota a um aplicativo autenticador',
    });
    expect(qr).toHaveAttribute('src', ENROLMENT.qr_code);
    const secret = screen.getByLabelText('Chave secreta');
    expect(secret).toHaveValue('JBSWY3DPEHPK3PXP');
    expect(secret).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Copiar a chave secreta' })).toBeInTheDocument();

    const code = screen.getByLabelText(/^Código do aplicativo/);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));
    expect(
      await screen.findByText('O código não é válido. Confira a hora do celular e tente de novo.'),
    ).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));

    const list = await screen.findByRole('list', { name: 'Códigos de recuperação' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole('button', { name: 'Copiar códigos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Baixar (.txt)' })).toBeInTheDocument();
    expect(callsTo(calls, `${BASE}/enrol/confirm`).at(-1)?.body).toEqual({ code: '123456' });

    await user.click(screen.getByRole('button', { name: 'Já guardei' }));
    expect(await screen.findByText('A verificação em duas etapas está ativa')).toBeInTheDocument();
    expect(screen.getByText('Restam 10 códigos de recuperação')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Códigos de recuperação' })).toBeNull();
  });

  it('shows the status, makes new recovery codes and turns it off with a code (en)', async () => {
    let state = ON;
    const { user, calls } = await openMfa(
      'en',
      () => state,
      (call) => {
        if (call.url.endsWith(`${BASE}/recovery-codes`))
          return { status: 200, body: { recovery_codes: CODES } };
        if (call.url.endsWith(`${BASE}/disable`)) {
          if ((call.body as { code: string }).code !== '123456') return WRONG_CODE;
          state = OFF;
          return { status: 200, body: { message: 'Second factor turned off' } };
        }
        return undefined;
      },
    );
    expect(await screen.findByText('Two-step verification is on')).toBeInTheDocument();
    expect(screen.getByText('7 recovery codes left')).toBeInTheDocument();
    expect(screen.getByText('On since')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate new recovery codes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Generate new recovery codes?' });
    await user.type(within(dialog).getByLabelText(/^Current code/), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(callsTo(calls, `${BASE}/recovery-codes`)[0]?.body).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: 'I saved them' }));

    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    dialog = await screen.findByRole('dialog', { name: 'Turn off two-step verification?' });
    await user.type(within(dialog).getByLabelText(/^Current code/), '999999');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(
      await within(dialog).findByText(
        'The code is not valid. Check the time on your phone and try again.',
      ),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Current code/));
    await user.type(within(dialog).getByLabelText(/^Current code/), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Second factor turned off')).toBeInTheDocument();
    expect(await screen.findByText('Two-step verification is off')).toBeInTheDocument();
  });

  it('cannot be turned off while a client requires it, and says why (pt)', async () => {
    await openMfa('pt', () => ({ ...ON, required: true }));
    const off = await screen.findByRole('button', { name: 'Desativar' });
    expect(off).toBeDisabled();
    expect(off).toHaveAccessibleDescription(
      'Um cliente do qual você faz parte exige verificação em duas etapas, então ela não pode ser desativada.',
    );
  });

  it('is reached from the user menu (en)', async () => {
    const { user, router } = await openMfa('en', () => OFF);
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('link', { name: 'Sessions' })).toHaveAttribute(
      'href',
      '/account/sessions',
    );
    await user.click(screen.getByRole('link', { name: 'Two-step verification' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/two-step'));
  });
});
