// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey, ApiKeyWithSecret, Language } from '@rota/contract';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const SECRET = 'rota_pat_s3cr3tK3yOnlyShownOnce';

function makeKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    user_api_keys_id: 1,
    users_id: 7,
    user_name: 'Ana Souza',
    name: 'ERP',
    key_hint: 'abcd',
    permissions: null,
    expires_at: null,
    last_used_at: new Date(NOW.getTime() - 5 * 60_000).toISOString(),
    revoked_at: null,
    created_at: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

const erp = makeKey();
const reports = makeKey({
  user_api_keys_id: 2,
  name: 'Relatórios',
  key_hint: 'wxyz',
  permissions: ['ROBOS.LIST', 'ROBOS.CREATE', 'HISTORIC.LIST', 'ATIVIDADES.LIST', 'AGENTES.LIST'],
  expires_at: new Date(NOW.getTime() - DAY).toISOString(),
  last_used_at: null,
});
const old = makeKey({
  user_api_keys_id: 3,
  name: 'Antiga',
  revoked_at: '2026-11-10T12:00:00.000Z',
});
const bruno = makeKey({ user_api_keys_id: 4, users_id: 8, user_name: 'Bruno Lima', name: 'CI' });

const HELD = ['ROBOS.LIST', 'ROBOS.CREATE', 'HISTORIC.LIST'];

async function openKeys(
  permissions: string[] = HELD,
  options: { lang?: Language; reply?: (call: MockCall) => MockReply | undefined } = {},
) {
  return openPage(
    '/apikey',
    /^(Chaves de API|API keys)$/,
    permissions,
    (call) => {
      const custom = options.reply?.(call);
      if (custom) return custom;
      if (call.url.endsWith('/user/apikey/api/v1/index')) {
        const all = (call.body as { all?: boolean }).all === true;
        return {
          status: 200,
          body: listOf(all ? [erp, reports, old, bruno] : [erp, reports, old]),
        };
      }
      if (call.url.endsWith('/user/apikey/api/v1/create')) {
        const body = call.body as { name: string; permissions: ApiKey['permissions'] };
        const created: ApiKeyWithSecret = {
          ...makeKey({ user_api_keys_id: 9, name: body.name, permissions: body.permissions }),
          key: SECRET,
        };
        return { status: 201, body: { message: 'Criado!', data: created } };
      }
      if (call.url.endsWith('/user/apikey/api/v1/revoke')) {
        return { status: 200, body: { message: 'Revogada!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('/apikey', { timeout: 30_000 }, () => {
  it('lists the user’s keys: permissions, expiry, last use and status', async () => {
    const { calls } = await openKeys();
    const table = await screen.findByRole('table', { name: 'Chaves de API' });
    expect(callsTo(calls, '/apikey/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
    });
    const rows = within(table).getAllByRole('row');
    const [, first, second, third] = rows;
    expect(within(first!).getByText('ERP')).toBeInTheDocument();
    expect(within(first!).getByText('…abcd')).toBeInTheDocument();
    expect(within(first!).getByText('Todas')).toBeInTheDocument();
    expect(within(first!).getByText('Nunca')).toBeInTheDocument();
    expect(within(first!).getByText('há 5 minutos')).toBeInTheDocument();
    expect(within(first!).getByText('Ativa')).toBeInTheDocument();
    // Five permissions: three badges, the rest folded.
    expect(within(second!).getByText('ROBOS.LIST')).toBeInTheDocument();
    expect(
      within(second!).getByLabelText('Também: ATIVIDADES.LIST, AGENTES.LIST'),
    ).toHaveTextContent('+2');
    expect(within(second!).getByText('Ainda não usada')).toBeInTheDocument();
    expect(within(second!).getByText('Expirada')).toBeInTheDocument();
    expect(within(third!).getByText('Revogada')).toBeInTheDocument();
    // No user column and no "all keys" switch without USUARIOS.LIST.
    expect(within(table).queryByRole('columnheader', { name: 'Usuário' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Todas as chaves deste cliente' })).toBeNull();
  });

  it('is reached from the user menu', async () => {
    const { user } = await openKeys(HELD, { lang: 'en' });
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('link', { name: 'API keys' })).toHaveAttribute(
      'href',
      '/apikey',
    );
  });

  it('creates a key with some of the user’s permissions and shows it once', async () => {
    const { user, calls } = await openKeys();
    await user.click(await screen.findByRole('button', { name: 'Nova chave de API' }));
    const drawer = await screen.findByRole('dialog', { name: 'Nova chave de API' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Integração ERP');
    await user.click(within(drawer).getByRole('radio', { name: 'Escolher' }));

    // Only what the user holds is offered, grouped by area.
    const robots = within(drawer).getByRole('group', { name: 'Robôs' });
    expect(
      within(robots)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('aria-label') ?? c.closest('label')?.textContent),
    ).toHaveLength(2);
    expect(within(drawer).getByRole('group', { name: 'Atividades' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('group', { name: 'Usuários e configuração' })).toBeNull();
    expect(within(drawer).queryByRole('checkbox', { name: 'Excluir' })).toBeNull();

    // None chosen: the contract's message, nothing sent.
    await user.click(within(drawer).getByRole('button', { name: 'Criar chave' }));
    expect(await within(drawer).findByText('Escolha pelo menos uma permissão')).toBeInTheDocument();
    expect(callsTo(calls, '/apikey/api/v1/create')).toHaveLength(0);

    await user.click(within(robots).getByRole('checkbox', { name: 'Listar' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar chave' }));
    await waitFor(() => expect(callsTo(calls, '/apikey/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/apikey/api/v1/create')[0]?.body).toEqual({
      name: 'Integração ERP',
      // 90 days is the default expiry.
      expires_at: new Date(NOW.getTime() + 90 * DAY).toISOString(),
      permissions: ['ROBOS.LIST'],
    });

    const reveal = await screen.findByRole('dialog', { name: 'Chave de API “Integração ERP”' });
    expect(within(reveal).getByText('Copie agora')).toBeInTheDocument();
    expect(within(reveal).getByRole('textbox', { name: 'Chave de API' })).toHaveValue(SECRET);
    expect(within(reveal).getByRole('button', { name: 'Copiar Chave de API' })).toBeInTheDocument();
    expect(
      within(reveal).getByText(
        `curl -H "Authorization: Bearer ${SECRET}" http://localhost:3000/api/rota/robot/api/v1/index -X POST -H 'content-type: application/json' -d '{}'`,
        { exact: false },
      ),
    ).toBeInTheDocument();
    await user.click(within(reveal).getByRole('button', { name: 'Já copiei' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
    expect(screen.queryByText(SECRET, { exact: false })).toBeNull();
  });

  it('creates a key with all permissions that never expires (en)', async () => {
    const { user, calls } = await openKeys(HELD, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'New API key' }));
    const drawer = await screen.findByRole('dialog', { name: 'New API key' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Name/ }), 'CI');
    await user.click(within(drawer).getByRole('radio', { name: 'Never' }));
    expect(within(drawer).getByRole('radio', { name: 'All of mine' })).toBeChecked();
    await user.click(within(drawer).getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(callsTo(calls, '/apikey/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/apikey/api/v1/create')[0]?.body).toEqual({
      name: 'CI',
      expires_at: null,
      permissions: null,
    });
    const reveal = await screen.findByRole('dialog', { name: 'API key “CI”' });
    expect(within(reveal).getByText(/won't be shown again/)).toBeInTheDocument();
    expect(within(reveal).getByRole('textbox', { name: 'API key' })).toHaveValue(SECRET);
    await user.click(within(reveal).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
  });

  it('sends a chosen last day as the end of that day', async () => {
    const { user, calls } = await openKeys(HELD, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'New API key' }));
    const drawer = await screen.findByRole('dialog', { name: 'New API key' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Name/ }), 'Audit');
    await user.click(within(drawer).getByRole('radio', { name: 'On a date' }));
    await user.click(within(drawer).getByRole('button', { name: 'Create key' }));
    expect(await within(drawer).findByText(/^Invalid dat/)).toBeInTheDocument();
    const day = within(drawer).getByLabelText(/^Last day/);
    // Typed as the en console shows a day (MM/DD/YYYY), whatever the browser's language.
    await user.type(day, '01/31/2027');
    await user.click(within(drawer).getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(callsTo(calls, '/apikey/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/apikey/api/v1/create')[0]?.body).toMatchObject({
      expires_at: new Date('2027-01-31T23:59:59').toISOString(),
    });
  });

  it('lets an administrator list every key of the client and revoke another user’s', async () => {
    const { user, calls } = await openKeys(['USUARIOS.LIST', 'USUARIOS.UPDATE']);
    await user.click(await screen.findByRole('switch', { name: 'Todas as chaves deste cliente' }));
    await waitFor(() =>
      expect(callsTo(calls, '/apikey/api/v1/index').at(-1)?.body).toMatchObject({ all: true }),
    );
    const table = await screen.findByRole('table', { name: 'Chaves de API' });
    expect(within(table).getByRole('columnheader', { name: 'Usuário' })).toBeInTheDocument();
    expect(await within(table).findByText('Bruno Lima')).toBeInTheDocument();

    await openRowAction(user, 'CI', 'Revogar');
    const confirm = await screen.findByRole('dialog', { name: 'Revogar a chave “CI”?' });
    expect(within(confirm).getByText(/para de funcionar na hora/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Revogar' }));
    await waitFor(() =>
      expect(callsTo(calls, '/apikey/api/v1/revoke')[0]?.body).toEqual({ id: 4 }),
    );
  });

  it('offers revoke on the user’s own keys only, without USUARIOS.UPDATE', async () => {
    const { user } = await openKeys(['USUARIOS.LIST']);
    await user.click(await screen.findByRole('switch', { name: 'Todas as chaves deste cliente' }));
    const table = await screen.findByRole('table', { name: 'Chaves de API' });
    await within(table).findByText('Bruno Lima');
    // Bruno's key has no action; Ana's active one has.
    expect(screen.queryByRole('button', { name: 'Ações de CI' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ações de Antiga' })).toBeNull();
    await openRowAction(user, 'ERP', 'Revogar');
    expect(
      await screen.findByRole('dialog', { name: 'Revogar a chave “ERP”?' }),
    ).toBeInTheDocument();
  });
});
