// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language, OidcMapping } from '@rota/contract';
import { FORBIDDEN, clientsProbe, makeClient } from '../../../test/admin-fixtures';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage } from '../../../test/operations-fixtures';

const STAMP = '2026-11-20T12:00:00.000Z';

function makeMapping(overrides: Partial<OidcMapping> = {}): OidcMapping {
  return {
    oidc_mappings_id: 1,
    claim_value: 'rota-operators',
    rota_clients_id: 1,
    client_name: 'Acme',
    profiles_id: 11,
    profile_name: 'Operators',
    auto_link_domains: [],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

const PROFILES: Record<number, { profiles_id: number; name: string }[]> = {
  1: [
    { profiles_id: 10, name: 'Administrator' },
    { profiles_id: 11, name: 'Operators' },
  ],
  2: [{ profiles_id: 20, name: 'Auditors' }],
};

async function openMappings(
  options: {
    admin?: boolean;
    lang?: Language;
    mappings?: OidcMapping[];
    reply?: (call: MockCall) => MockReply | undefined;
  } = {},
) {
  const admin = options.admin ?? true;
  const probe = clientsProbe(admin, [
    makeClient(),
    makeClient({ rota_clients_id: 2, name: 'Beta' }),
  ]);
  return openPage(
    '/client/sso',
    /^(Login único|Single sign-on)$/,
    ['USUARIOS.LIST'],
    (call) => {
      const custom = options.reply?.(call);
      if (custom) return custom;
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/user/oidc/mapping/api/v1/index')) {
        return admin
          ? { status: 200, body: listOf(options.mappings ?? [makeMapping()]) }
          : FORBIDDEN;
      }
      if (call.url.endsWith('/rota/client/api/v1/profiles')) {
        const { id } = call.body as { id: number };
        return { status: 200, body: { data: PROFILES[id] ?? [] } };
      }
      return undefined;
    },
    options.lang,
  );
}

describe('/client/sso', { timeout: 30_000 }, () => {
  it.each([
    ['pt', 'Mapeamentos de grupos', 'Login único', 'Grupo', 'Cliente', 'Perfil'],
    ['en', 'Group mappings', 'Single sign-on', 'Group', 'Client', 'Profile'],
  ] as const)(
    '(%s) lists each group with its client and profile, under Clients in the sidebar',
    async (lang, tableName, navLabel, group, client, profile) => {
      const { calls } = await openMappings({ lang });
      const table = await screen.findByRole('table', { name: tableName });
      const [header, row] = within(table).getAllByRole('row');
      for (const column of [group, client, profile]) {
        expect(within(header!).getByText(column)).toBeInTheDocument();
      }
      expect(within(row!).getByText('rota-operators')).toBeInTheDocument();
      expect(within(row!).getByText('Acme')).toBeInTheDocument();
      expect(within(row!).getByText('Operators')).toBeInTheDocument();
      expect(callsTo(calls, '/oidc/mapping/api/v1/index').at(-1)?.body).toEqual({
        page: 1,
        per_page: 20,
        sort: 'claim_value',
        order: 'asc',
      });
      const nav = screen.getByRole('navigation');
      const entry = await within(nav).findByRole('link', { name: navLabel });
      expect(entry).toHaveAttribute('aria-current', 'page');
      expect(
        within(nav).getByRole('link', { name: lang === 'pt' ? 'Clientes' : 'Clients' }),
      ).not.toHaveAttribute('aria-current');
    },
  );

  it('creates a mapping: the profile is chosen among the chosen client’s', async () => {
    const { user, calls } = await openMappings({
      mappings: [],
      reply: (call) =>
        call.url.endsWith('/oidc/mapping/api/v1/create')
          ? {
              status: 201,
              body: { message: 'Criado!', data: makeMapping({ oidc_mappings_id: 2 }) },
            }
          : undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'Novo mapeamento' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo mapeamento de grupo' });
    await user.click(within(drawer).getByRole('button', { name: 'Criar mapeamento' }));
    expect(await within(drawer).findByText('Grupo obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('Cliente é obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByText('Perfil obrigatório')).toBeInTheDocument();
    expect(within(drawer).getByRole('combobox', { name: /^Perfil/ })).toBeDisabled();

    await user.type(within(drawer).getByRole('textbox', { name: /^Grupo/ }), 'rota-auditors');
    await user.click(within(drawer).getByRole('combobox', { name: /^Cliente/ }));
    await user.click(await screen.findByRole('option', { name: 'Beta' }));
    await waitFor(() =>
      expect(callsTo(calls, '/rota/client/api/v1/profiles').at(-1)?.body).toEqual({ id: 2 }),
    );
    await user.click(within(drawer).getByRole('combobox', { name: /^Perfil/ }));
    expect(screen.queryByRole('option', { name: 'Operators' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Auditors' }));
    await user.click(within(drawer).getByRole('button', { name: 'Criar mapeamento' }));

    await waitFor(() =>
      expect(callsTo(calls, '/oidc/mapping/api/v1/create')[0]?.body).toEqual({
        claim_value: 'rota-auditors',
        rota_clients_id: 2,
        profiles_id: 20,
        auto_link_domains: [],
      }),
    );
  });

  it('edits a mapping; a new client empties the profile until one of its own is chosen', async () => {
    const { user, calls } = await openMappings({
      lang: 'en',
      reply: (call) =>
        call.url.endsWith('/oidc/mapping/api/v1/update')
          ? { status: 200, body: { message: 'Updated!' } }
          : undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'Actions for rota-operators' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog', { name: 'Edit group mapping' });
    expect(within(drawer).getByRole('textbox', { name: /^Group/ })).toHaveValue('rota-operators');
    await waitFor(() =>
      expect(within(drawer).getByRole('combobox', { name: /^Profile/ })).toHaveValue('Operators'),
    );

    await user.click(within(drawer).getByRole('combobox', { name: /^Client/ }));
    await user.click(await screen.findByRole('option', { name: 'Beta' }));
    expect(within(drawer).getByRole('combobox', { name: /^Profile/ })).toHaveValue('');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await within(drawer).findByText('Required profile')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('combobox', { name: /^Profile/ }));
    await user.click(await screen.findByRole('option', { name: 'Auditors' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(calls, '/oidc/mapping/api/v1/update')[0]?.body).toEqual({
        id: 1,
        claim_value: 'rota-operators',
        rota_clients_id: 2,
        profiles_id: 20,
        auto_link_domains: [],
      }),
    );
  });

  it.each([
    ['pt', 'Domínios de vínculo automático', 'Deve ser um domínio, como exemplo.com.br', 'Salvar'],
    ['en', 'Automatic linking domains', 'Must be a domain, like example.com', 'Save'],
  ] as const)(
    '(%s) keeps the domains whose verified addresses link automatically, checked as the server checks them',
    async (lang, label, invalid, save) => {
      const { user, calls } = await openMappings({
        lang,
        mappings: [makeMapping({ auto_link_domains: ['acme.example'] })],
        reply: (call) =>
          call.url.endsWith('/oidc/mapping/api/v1/update')
            ? { status: 200, body: { message: 'ok' } }
            : undefined,
      });
      const table = await screen.findByRole('table');
      expect(await within(table).findByText('acme.example')).toBeInTheDocument();
      await user.click(
        await screen.findByRole('button', {
          name: lang === 'pt' ? 'Ações de rota-operators' : 'Actions for rota-operators',
        }),
      );
      await user.click(
        await screen.findByRole('menuitem', { name: lang === 'pt' ? 'Editar' : 'Edit' }),
      );
      const drawer = await screen.findByRole('dialog');
      const domains = within(drawer).getByRole('combobox', { name: label });
      await user.type(domains, 'not_a_domain,');
      await user.click(within(drawer).getByRole('button', { name: save }));
      expect(await within(drawer).findByText(invalid)).toBeInTheDocument();
      expect(callsTo(calls, '/oidc/mapping/api/v1/update')).toHaveLength(0);

      // Backspace removes the last tag (the wrong one); then a good one.
      await user.type(domains, '{Backspace}Beta.Example,');
      await waitFor(() =>
        expect(within(drawer).getByRole('combobox', { name: /^(Perfil|Profile)/ })).toHaveValue(
          'Operators',
        ),
      );
      await user.click(within(drawer).getByRole('button', { name: save }));
      await waitFor(() =>
        expect(callsTo(calls, '/oidc/mapping/api/v1/update')[0]?.body).toEqual({
          id: 1,
          claim_value: 'rota-operators',
          rota_clients_id: 1,
          profiles_id: 11,
          auto_link_domains: ['acme.example', 'beta.example'],
        }),
      );
    },
  );

  it('asks before deleting a mapping, naming the group and what its members lose', async () => {
    const { user, calls } = await openMappings({
      reply: (call) =>
        call.url.endsWith('/oidc/mapping/api/v1/delete')
          ? { status: 200, body: { message: 'Excluído!' } }
          : undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'Ações de rota-operators' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o mapeamento de grupo?' });
    expect(
      within(dialog).getByText(
        'Os membros de rota-operators perdem Acme no próximo acesso, a menos que outro grupo o dê a eles.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() =>
      expect(callsTo(calls, '/oidc/mapping/api/v1/delete')[0]?.body).toEqual({ id: 1 }),
    );
  });

  it('denies anyone but a platform administrator, and leaves the entry out of the sidebar', async () => {
    await openMappings({ admin: false });
    expect(
      await screen.findByText('Só administradores da plataforma mapeiam grupos do login único.'),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    await waitFor(() =>
      expect(within(nav).queryByRole('link', { name: 'Login único' })).toBeNull(),
    );
  });
});
