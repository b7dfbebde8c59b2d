import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, type AccessRequest, type Language, type User } from '@rota/contract';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { mockFetch } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { clientsProbe, makeAccessRequest, makeAccount, makeProfile } from './admin-fixtures';

const ALL = ['USUARIOS.LIST', 'USUARIOS.CREATE', 'USUARIOS.UPDATE', 'USUARIOS.DELETE'];

const bruno = makeAccount();
// The signed-in user (makeUser's users_id) is listed too.
const ana = makeAccount({
  users_id: 7,
  name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  access: 'ana',
});
const operador = makeProfile({ users: 2 });
const admin = makeProfile({ profiles_id: 4, name: 'Administrator', users: 1 });

async function openUsers(
  permissions: string[],
  options: {
    lang?: Language;
    path?: string;
    users?: User[];
    admin?: boolean;
    requests?: AccessRequest[];
  } = {},
) {
  const users = options.users ?? [ana, bruno];
  const probe = clientsProbe(options.admin ?? false);
  return openPage(
    options.path ?? '/user',
    /^(Usuários|Users)$/,
    permissions,
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      const { url, body } = call;
      if (url.endsWith('/user/api/v1/index')) return { status: 200, body: listOf(users) };
      if (url.endsWith('/user/profile/api/v1/index')) {
        return { status: 200, body: listOf([admin, operador]) };
      }
      if (url.endsWith('/user/api/v1/create')) {
        const created = makeAccount({ users_id: 30, ...(body as Partial<User>), clients: [] });
        return { status: 201, body: { message: 'Criado!', data: created } };
      }
      if (url.endsWith('/user/api/v1/update')) return { status: 204 };
      if (url.endsWith('/user/api/v1/update/password')) return { status: 204 };
      if (url.endsWith('/user/api/v1/delete'))
        return { status: 202, body: { message: 'Removido!' } };
      if (url.endsWith('/user/api/v1/avatar')) {
        return {
          status: 200,
          body: {
            message: 'Criado!',
            data: { users_id: 30, avatar: '/api/user/api/v1/avatar/x.png' },
          },
        };
      }
      if (url.endsWith('/user/access-request/api/v1/index')) {
        return { status: 200, body: listOf(options.requests ?? [makeAccessRequest()]) };
      }
      if (url.endsWith('/user/access-request/api/v1/update')) return { status: 204 };
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/user', { timeout: 30_000 }, () => {
  it('lists users with their profile in the selected client, and the Users | Profiles tabs', async () => {
    const { calls } = await openUsers(ALL);
    const table = await screen.findByRole('table', { name: 'Usuários' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual(['Nome', 'Acesso', 'Perfil', 'Grupo / setor', 'Criado em', 'Ações']);
    const rows = within(table).getAllByRole('row');
    expect(within(rows[2]!).getByText('Bruno Lima')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('bruno.lima')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Operador')).toBeInTheDocument();
    expect(callsTo(calls, '/user/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
    expect(screen.getByRole('tab', { name: 'Usuários' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Perfis' })).toBeInTheDocument();
    // Not a platform administrator: no access requests.
    expect(screen.queryByRole('tab', { name: /Solicitações de acesso/ })).not.toBeInTheDocument();
  });

  it('hides create, edit, set password and delete from a user who may only list', async () => {
    await openUsers(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Usuários' });
    expect(screen.queryByRole('button', { name: 'Novo usuário' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Bruno Lima' })).not.toBeInTheDocument();
  });

  it('offers neither set password nor delete on one’s own row', async () => {
    const { user } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Ana Souza' }));
    expect(await screen.findByRole('menuitem', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Definir senha' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).not.toBeInTheDocument();
  });

  it('shows the contract’s messages under each field (pt)', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Ana1');
    await user.type(within(dialog).getByLabelText(/^Acesso/), 'AB');
    await user.type(within(dialog).getByLabelText(/^Senha/), 'segredo123');
    await user.type(within(dialog).getByLabelText(/^Confirme a senha/), 'segredo999');
    await user.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));

    expect(
      await within(dialog).findByText('Não está no formato correto, digite apenas letras.'),
    ).toBeInTheDocument();
    for (const text of [
      'Sobrenome obrigatório',
      'E-mail obrigatório',
      'Acesso inválido',
      'Grupo obrigatório',
      'Setor obrigatório',
      'Trabalho obrigatório',
      'Cargo obrigatório',
      'As senhas devem ser iguais',
      'Perfil obrigatório',
    ]) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
    expect(callsTo(calls, '/user/api/v1/create')).toHaveLength(0);
  });

  it.each([
    [
      'pt',
      'Novo usuário',
      'Criar usuário',
      /^Nome/,
      /^Sobrenome/,
      'Não está no formato correto, digite apenas letras.',
    ],
    [
      'en',
      'New user',
      'Create user',
      /^First name/,
      /^Last name/,
      'It s not in the correct format, just type letters.',
    ],
  ] as const)(
    'takes names of any language with apostrophes and hyphens (%s)',
    async (lang, title, submit, first, last, lettersOnly) => {
      const { user } = await openUsers(ALL, { lang });
      await user.click(await screen.findByRole('button', { name: title }));
      const dialog = await screen.findByRole('dialog', { name: title });
      await user.type(within(dialog).getByLabelText(first), 'João-Pedro');
      await user.type(within(dialog).getByLabelText(last), 'D’Ávila Nguyễn');
      await user.click(within(dialog).getByRole('button', { name: submit }));
      // The form was checked (other fields say they are missing), the names were not refused.
      expect(await within(dialog).findAllByText(/obrigatório|Required/)).not.toHaveLength(0);
      expect(within(dialog).queryByText(lettersOnly)).not.toBeInTheDocument();
      // A digit is still not a name, with the letters-only message.
      await user.clear(within(dialog).getByLabelText(first));
      await user.type(within(dialog).getByLabelText(first), 'João2');
      await user.click(within(dialog).getByRole('button', { name: submit }));
      expect(await within(dialog).findByText(lettersOnly)).toBeInTheDocument();
    },
  );

  it('shows the same messages in English', async () => {
    const { user } = await openUsers(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText(/^First name/), 'Ana 2');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(
      await within(dialog).findByText('It s not in the correct format, just type letters.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Required last name')).toBeInTheDocument();
    expect(within(dialog).getByText('Required acess')).toBeInTheDocument();
    expect(within(dialog).getByText('Required email')).toBeInTheDocument();
    expect(within(dialog).getByText('Required role')).toBeInTheDocument();
    expect(within(dialog).getAllByText('Required password')).toHaveLength(2);
  });

  it.each([
    ['pt', 'Novo usuário', 'Criar usuário', 'Remover Acme', 'Cliente é obrigatório'],
    ['en', 'New user', 'Create user', 'Remove Acme', 'Client is required'],
  ] as const)(
    'requires at least one client (%s)',
    async (lang, title, submit, removeRow, message) => {
      const { user } = await openUsers(ALL, { lang });
      await user.click(await screen.findByRole('button', { name: title }));
      const dialog = await screen.findByRole('dialog', { name: title });
      await user.click(within(dialog).getByRole('button', { name: removeRow }));
      await user.click(within(dialog).getByRole('button', { name: submit }));
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
    },
  );

  it('creates a user with a membership in the selected client, then uploads the picture', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Carla');
    await user.type(within(dialog).getByLabelText(/^Sobrenome/), 'Dias');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'Carla@Example.com');
    await user.type(within(dialog).getByLabelText(/^Acesso/), 'carla.dias');
    await user.type(within(dialog).getByLabelText(/^Grupo/), 'Operações');
    await user.type(within(dialog).getByLabelText(/^Setor/), 'Financeiro');
    await user.type(within(dialog).getByLabelText(/^Trabalho/), 'Analista');
    await user.type(within(dialog).getByLabelText(/^Cargo/), 'Operadora');
    await user.type(within(dialog).getByLabelText(/^Senha/), 'segredo123');
    await user.type(within(dialog).getByLabelText(/^Confirme a senha/), 'segredo123');
    // The client is the selected one already; its profiles are offered.
    expect(within(dialog).getByRole('combobox', { name: /^Cliente/ })).toHaveValue('Acme');
    await user.click(within(dialog).getByRole('combobox', { name: /^Perfil/ }));
    await user.click(await screen.findByRole('option', { name: 'Operador' }));
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'carla.png', {
      type: 'image/png',
    });
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, picture);
    expect(within(dialog).getByText(/carla\.png/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));

    await waitFor(() => expect(callsTo(calls, '/user/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/user/api/v1/create')[0]?.body).toEqual({
      name: 'Carla',
      last_name: 'Dias',
      email: 'carla@example.com',
      access: 'carla.dias',
      group: 'Operações',
      sector: 'Financeiro',
      work: 'Analista',
      role: 'Operadora',
      password_change_required: true,
      password: 'segredo123',
      clients: [{ rota_clients_id: 1, profiles_id: 3 }],
    });
    await waitFor(() => expect(callsTo(calls, '/user/api/v1/avatar')).toHaveLength(1));
    const form = callsTo(calls, '/user/api/v1/avatar')[0]!.form!;
    expect([...form.keys()]).toEqual(['id', 'avatar']);
    expect(form.get('id')).toBe('30');
    expect((form.get('avatar') as File).name).toBe('carla.png');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Novo usuário' })).not.toBeInTheDocument(),
    );
  });

  it('refuses a picture over 1 MB before sending anything', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    const big = new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'big.png', { type: 'image/png' });
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, big);
    expect(await within(dialog).findByText('A imagem tem mais de 1 MB')).toBeInTheDocument();
    expect(within(dialog).queryByText(/big\.png/)).not.toBeInTheDocument();
    expect(callsTo(calls, '/avatar')).toHaveLength(0);
  });

  it('edits a user: unchanged memberships stay out of the update, a removed picture is null', async () => {
    const { user, calls } = await openUsers(ALL, {
      users: [ana, makeAccount({ avatar: '/api/user/api/v1/avatar/a.png' })],
    });
    await user.click(await screen.findByRole('button', { name: 'Ações de Bruno Lima' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar usuário' });
    expect(within(dialog).getByLabelText(/^E-mail/)).toHaveValue('bruno@example.com');
    // No password on edit: it has its own action.
    expect(within(dialog).queryByLabelText(/^Senha/)).not.toBeInTheDocument();
    const role = within(dialog).getByLabelText(/^Cargo/);
    await user.clear(role);
    await user.type(role, 'Supervisor');
    await user.click(within(dialog).getByRole('button', { name: 'Remover imagem' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(callsTo(calls, '/user/api/v1/update')).toHaveLength(1));
    const update = callsTo(calls, '/user/api/v1/update')[0]!;
    expect(update.method).toBe('PUT');
    expect(update.body).toEqual({
      id: 20,
      name: 'Bruno',
      last_name: 'Lima',
      email: 'bruno@example.com',
      access: 'bruno.lima',
      group: 'Operações',
      sector: 'Financeiro',
      work: 'Analista',
      role: 'Supervisor',
      password_change_required: false,
      avatar: null,
    });
  });

  it('sends the memberships when they change', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Bruno Lima' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar usuário' });
    await user.click(within(dialog).getByRole('combobox', { name: /^Perfil/ }));
    await user.click(await screen.findByRole('option', { name: 'Administrator' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/user/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/user/api/v1/update')[0]?.body).toMatchObject({
      id: 20,
      clients: [{ rota_clients_id: 1, profiles_id: 4 }],
    });
  });

  it('sets another user’s password, which must be confirmed', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Bruno Lima' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Definir senha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Definir senha: Bruno Lima' });
    await user.type(within(dialog).getByLabelText(/^Senha/), 'novasenha1');
    await user.type(within(dialog).getByLabelText(/^Confirme a senha/), 'novasenha2');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('As senhas devem ser iguais')).toBeInTheDocument();
    const confirm = within(dialog).getByLabelText(/^Confirme a senha/);
    await user.clear(confirm);
    await user.type(confirm, 'novasenha1');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update/password')).toHaveLength(1));
    expect(callsTo(calls, '/update/password')[0]?.body).toEqual({
      users_id: 20,
      password: 'novasenha1',
      confirm_password: 'novasenha1',
      password_change_required: true,
    });
    expect(await screen.findByText('Senha definida')).toBeInTheDocument();
  });

  it('asks before deleting, naming the user', async () => {
    const { user, calls } = await openUsers(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Bruno Lima' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o usuário “Bruno Lima”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/user/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/user/api/v1/delete')[0]?.body).toEqual({ id: 20 });
  });

  it('turns an access request into a user and marks it approved (platform administrators)', async () => {
    const { user, calls } = await openUsers(ALL, { admin: true });
    const tab = await screen.findByRole('tab', { name: /Solicitações de acesso/ });
    await user.click(tab);
    const table = await screen.findByRole('table', { name: 'Solicitações de acesso' });
    expect(within(table).getByText('Pendente')).toBeInTheDocument();
    // Pending requests by default, newest first.
    expect(callsTo(calls, '/access-request/api/v1/index').at(-1)?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
      status: 'pending',
    });

    await user.click(within(table).getByRole('button', { name: 'Ações de Carla Dias Souza' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Criar usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    expect(within(dialog).getByLabelText(/^Nome/)).toHaveValue('Carla');
    expect(within(dialog).getByLabelText(/^Sobrenome/)).toHaveValue('Dias Souza');
    expect(within(dialog).getByLabelText(/^E-mail/)).toHaveValue('Carla.Dias@example.com');
    expect(within(dialog).getByLabelText(/^Acesso/)).toHaveValue('carla.dias');
    for (const [label, value] of [
      [/^Grupo/, 'Operações'],
      [/^Setor/, 'Financeiro'],
      [/^Trabalho/, 'Analista'],
      [/^Cargo/, 'Operadora'],
      [/^Senha/, 'segredo123'],
      [/^Confirme a senha/, 'segredo123'],
    ] as const) {
      await user.type(within(dialog).getByLabelText(label), value);
    }
    await user.click(within(dialog).getByRole('combobox', { name: /^Perfil/ }));
    await user.click(await screen.findByRole('option', { name: 'Operador' }));
    await user.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));

    await waitFor(() => expect(callsTo(calls, '/access-request/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/user/api/v1/create')).toHaveLength(1);
    expect(callsTo(calls, '/access-request/api/v1/update')[0]?.body).toEqual({
      id: 5,
      status: 'approved',
    });
  });

  it('dismisses an access request', async () => {
    const { user, calls } = await openUsers(ALL, { admin: true, path: '/user?tab=requests' });
    await user.click(await screen.findByRole('button', { name: 'Ações de Carla Dias Souza' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Dispensar' }));
    await waitFor(() => expect(callsTo(calls, '/access-request/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/access-request/api/v1/update')[0]?.body).toEqual({
      id: 5,
      status: 'dismissed',
    });
  });

  it('keeps a membership in another client as it is: its profile is only shown', async () => {
    setToken('token');
    const both = makeAccount({
      clients: [
        { rota_clients_id: 1, client_name: 'Acme', profiles_id: 3, profile_name: 'Operador' },
        { rota_clients_id: 2, client_name: 'Beta', profiles_id: 8, profile_name: 'Gestor' },
      ],
    });
    const probe = clientsProbe(false);
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/auth/v1/me')) {
        return {
          status: 200,
          body: makeUser({
            permissions: ALL,
            clients: [
              { rota_clients_id: 1, name: 'Acme' },
              { rota_clients_id: 2, name: 'Beta' },
            ],
          }),
        };
      }
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/user/api/v1/index')) return { status: 200, body: listOf([both]) };
      if (call.url.endsWith('/user/profile/api/v1/index')) {
        return { status: 200, body: listOf([admin, operador]) };
      }
      if (call.url.endsWith('/user/api/v1/update')) return { status: 204 };
      return { status: 404, body: { message: 'Not found' } };
    });
    const { user } = renderWithRouter({ path: '/user' });
    await user.click(await screen.findByRole('button', { name: 'Ações de Bruno Lima' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar usuário' });
    const profiles = within(dialog).getAllByRole('combobox', { name: /^Perfil/ });
    expect(profiles[0]).toBeEnabled();
    expect(profiles[1]).toHaveValue('Gestor');
    expect(profiles[1]).toBeDisabled();
    expect(
      within(dialog).getByText(/Para alterá-lo, selecione este cliente no cabeçalho/),
    ).toBeInTheDocument();
    // Both clients are taken: nothing left to add.
    expect(within(dialog).queryByRole('button', { name: 'Adicionar cliente' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Remover Beta' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/user/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/user/api/v1/update')[0]?.body).toMatchObject({
      clients: [{ rota_clients_id: 1, profiles_id: 3 }],
    });
  });
});
