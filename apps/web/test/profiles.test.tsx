import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Language, type Profile } from '@rota/contract';
import {
  actionCoverage,
  areaCoverage,
  normalizePermissions,
  toggleAction,
  toggleAll,
  toggleArea,
  togglePermission,
} from '../src/features/profiles/components/permission-matrix-state';
import { resetEnvironment } from './render';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { clientsProbe, makeAccount, makeProfile } from './admin-fixtures';

const ALL = ['USUARIOS.LIST', 'USUARIOS.CREATE', 'USUARIOS.UPDATE', 'USUARIOS.DELETE'];

describe('permission matrix state', () => {
  it('toggles one permission, keeping the catalogue order', () => {
    expect(togglePermission(['USUARIOS.LIST'], 'ROBOS.DELETE')).toEqual([
      'ROBOS.DELETE',
      'USUARIOS.LIST',
    ]);
    expect(togglePermission(['ROBOS.DELETE', 'USUARIOS.LIST'], 'ROBOS.DELETE')).toEqual([
      'USUARIOS.LIST',
    ]);
  });

  it('grants a whole row unless it is all held, then revokes it', () => {
    const some = toggleArea(['AGENTES.LIST'], 'AGENTES');
    expect(some).toEqual(['AGENTES.LIST', 'AGENTES.CREATE', 'AGENTES.UPDATE', 'AGENTES.DELETE']);
    expect(areaCoverage(['AGENTES.LIST'], 'AGENTES')).toBe('some');
    expect(areaCoverage(some, 'AGENTES')).toBe('all');
    expect(toggleArea([...some, 'ROBOS.LIST'], 'AGENTES')).toEqual(['ROBOS.LIST']);
  });

  it('grants and revokes a whole column', () => {
    const lists = toggleAction([], 'LIST');
    expect(lists).toEqual([
      'ROBOS.LIST',
      'ATIVIDADES.LIST',
      'AGENDAMENTOS.LIST',
      'PARAMETROS.LIST',
      'AGENTES.LIST',
      'USUARIOS.LIST',
      'HISTORIC.LIST',
    ]);
    expect(actionCoverage(lists, 'LIST')).toBe('all');
    expect(actionCoverage(lists, 'CREATE')).toBe('none');
    expect(toggleAction([...lists, 'ROBOS.CREATE'], 'LIST')).toEqual(['ROBOS.CREATE']);
  });

  it('grants everything, then nothing; drops what is not in the catalogue', () => {
    expect(toggleAll(['ROBOS.LIST'])).toEqual([...PERMISSIONS]);
    expect(toggleAll([...PERMISSIONS])).toEqual([]);
    expect(normalizePermissions(['X.Y', 'HISTORIC.LIST', 'ROBOS.LIST', 'ROBOS.LIST'])).toEqual([
      'ROBOS.LIST',
      'HISTORIC.LIST',
    ]);
  });
});

async function openProfiles(
  permissions: string[],
  options: { lang?: Language; profiles?: Profile[] } = {},
) {
  const profiles = options.profiles ?? [
    makeProfile({ profiles_id: 4, name: 'Administrator', permissions: [...PERMISSIONS], users: 2 }),
    makeProfile(),
  ];
  const probe = clientsProbe(false);
  return openPage(
    '/user?tab=profiles',
    /^(Usuários|Users)$/,
    permissions,
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      const { url, body } = call;
      if (url.endsWith('/user/profile/api/v1/index'))
        return { status: 200, body: listOf(profiles) };
      if (url.endsWith('/user/profile/api/v1/create')) {
        return {
          status: 201,
          body: { message: 'Criado!', data: makeProfile({ profiles_id: 9, ...(body as object) }) },
        };
      }
      if (url.endsWith('/user/profile/api/v1/update')) return { status: 204 };
      if (url.endsWith('/user/profile/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      if (url.endsWith('/user/api/v1/index')) return { status: 200, body: listOf([makeAccount()]) };
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('profiles tab', { timeout: 30_000 }, () => {
  it('lists profiles with their permission count and users', async () => {
    await openProfiles(ALL);
    const table = await screen.findByRole('table', { name: 'Perfis' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Administrator')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('28 de 28')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('2 de 28')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Novo perfil' })).toBeInTheDocument();
  });

  it('builds the permission list from the matrix: a row, a column and a cell', async () => {
    const { user, calls } = await openProfiles(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo perfil' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo perfil' });
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Somente robôs');
    const matrix = within(dialog).getByRole('table', { name: 'Permissões' });
    await user.click(within(matrix).getByRole('checkbox', { name: 'Todas as ações em Robôs' }));
    await user.click(within(matrix).getByRole('checkbox', { name: 'Listar em todas as áreas' }));
    await user.click(
      within(matrix).getByRole('checkbox', { name: 'Histórico de atividades: Listar' }),
    );
    const usersRow = within(matrix).getByRole('checkbox', {
      name: 'Todas as ações em Usuários e configuração',
    });
    // One of its four: neither on nor off.
    expect(usersRow).toHaveAttribute('data-indeterminate', 'true');
    expect(within(dialog).getByText('9 de 28 permissões')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Criar perfil' }));

    await waitFor(() => expect(callsTo(calls, '/profile/api/v1/create')).toHaveLength(1));
    expect(callsTo(calls, '/profile/api/v1/create')[0]?.body).toEqual({
      name: 'Somente robôs',
      permissions: [
        'ROBOS.LIST',
        'ROBOS.CREATE',
        'ROBOS.UPDATE',
        'ROBOS.DELETE',
        'ATIVIDADES.LIST',
        'AGENDAMENTOS.LIST',
        'PARAMETROS.LIST',
        'AGENTES.LIST',
        'USUARIOS.LIST',
      ],
    });
  });

  it('edits a profile starting from its permissions, in English', async () => {
    const { user, calls } = await openProfiles(ALL, { lang: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Actions for Operador' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    const matrix = within(dialog).getByRole('table', { name: 'Permissions' });
    expect(within(matrix).getByRole('checkbox', { name: 'Robots: List' })).toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'Robots: Delete' })).not.toBeChecked();
    await user.click(within(matrix).getByRole('checkbox', { name: 'Robots: Create' }));
    await user.click(within(matrix).getByRole('checkbox', { name: 'Tasks: List' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/profile/api/v1/update')).toHaveLength(1));
    expect(callsTo(calls, '/profile/api/v1/update')[0]?.body).toEqual({
      id: 3,
      name: 'Operador',
      permissions: ['ROBOS.LIST', 'ATIVIDADES.LIST'],
    });
  });

  it('explains why a profile in use cannot be deleted, and leads to its users', async () => {
    const { user, calls, router } = await openProfiles(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Administrator' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'O perfil “Administrator” está em uso',
    });
    expect(within(dialog).getByText(/2 usuários têm este perfil/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Ver seus usuários' }));
    await waitFor(() => expect(router.state.location.search).toBe('?profiles_id=4'));
    await waitFor(() =>
      expect(callsTo(calls, '/user/api/v1/index').at(-1)?.body).toMatchObject({ profiles_id: 4 }),
    );
    expect(screen.getByRole('tab', { name: 'Usuários' })).toHaveAttribute('aria-selected', 'true');
    expect(callsTo(calls, '/profile/api/v1/delete')).toHaveLength(0);
  });

  it('deletes an unused profile after asking', async () => {
    const { user, calls } = await openProfiles(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de Operador' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o perfil “Operador”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/profile/api/v1/delete')).toHaveLength(1));
    expect(callsTo(calls, '/profile/api/v1/delete')[0]?.body).toEqual({ id: 3 });
  });

  it('hides create, edit and delete from a user who may only list', async () => {
    await openProfiles(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Perfis' });
    expect(screen.queryByRole('button', { name: 'Novo perfil' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Operador' })).not.toBeInTheDocument();
  });
});
