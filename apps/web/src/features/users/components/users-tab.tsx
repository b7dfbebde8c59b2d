import { Avatar, Badge, Code, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconKey, IconShieldOff, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MeResponse, User } from '@rota/contract';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useResetMfa } from '../../mfa';
import { profileOptionsQueryOptions } from '../../profiles';
import { useDeleteUser } from '../api/delete-user';
import { USER_SORTS, usersQueryOptions, type UserListBody } from '../api/list-users';
import { SetPasswordDrawer } from './set-password-drawer';
import { UserFormDrawer } from './user-form-drawer';
import '../i18n';

export const fullNameOf = (user: Pick<User, 'name' | 'last_name'>) =>
  `${user.name} ${user.last_name}`.trim();

function positiveId(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

type UsersTabProps = {
  me: MeResponse;
  /** Set by the page: a user to edit, or null to create one (its header's button). */
  drawer: ReturnType<typeof useDialog<User | null>>;
};

/** The selected client's users: search, profile filter, edit, set password, delete. */
export function UsersTab({ me, drawer }: UsersTabProps) {
  const { t } = useTranslation('users');
  const can = useCan();
  const list = useListState({
    sorts: USER_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['profiles_id'],
  });
  const profileId = positiveId(list.filters.profiles_id);
  const body: UserListBody = { ...list.query, ...(profileId ? { profiles_id: profileId } : {}) };
  const query = useQuery(usersQueryOptions(body));
  const profiles = useQuery(profileOptionsQueryOptions());
  const password = useDialog<User>();
  const remove = useDialog<User>();
  const deleteUser = useDeleteUser();
  const resetMfa = useDialog<User>();
  const resetMfaCall = useResetMfa();
  const canCreate = can('USUARIOS.CREATE');
  const selected = me.rota_clients_id_selected;
  const isMe = (user: User) => user.users_id === me.users_id;

  const columns: DataTableColumn<User>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (user) => (
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Avatar
            src={user.avatar}
            name={fullNameOf(user)}
            alt=""
            color="initials"
            radius="xl"
            size={32}
          />
          <Stack gap={0} miw={0}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={600} truncate>
                {fullNameOf(user)}
              </Text>
              {isMe(user) ? (
                <Badge size="xs" variant="light" radius="sm" tt="none">
                  {t('list.you')}
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'access',
      header: t('columns.access'),
      sort: 'access',
      render: (user) => <Code style={{ whiteSpace: 'nowrap' }}>{user.access}</Code>,
    },
    {
      key: 'profile',
      header: t('columns.profile'),
      render: (user) => {
        const here = user.clients.find((m) => m.rota_clients_id === selected);
        const elsewhere = user.clients.filter((m) => m.rota_clients_id !== selected);
        return (
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{here?.profile_name ?? '—'}</Text>
            {elsewhere.length > 0 ? (
              <Tooltip
                multiline
                maw={260}
                label={elsewhere.map((m) => `${m.client_name}: ${m.profile_name}`).join(' · ')}
              >
                <Badge size="xs" variant="outline" color="gray" radius="sm" tt="none">
                  {t('list.otherClients', { count: elsewhere.length })}
                </Badge>
              </Tooltip>
            ) : null}
          </Group>
        );
      },
    },
    {
      key: 'group',
      header: t('columns.groupSector'),
      visibleFrom: 'md',
      render: (user) => (
        <Stack gap={0}>
          <Text size="sm">{user.group ?? '—'}</Text>
          {user.sector ? (
            <Text size="xs" c="dimmed">
              {user.sector}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'created',
      header: t('columns.created'),
      sort: 'created_at',
      visibleFrom: 'lg',
      render: (user) => <DateTimeText value={user.created_at} mode="date" />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<User>[] = [
    actions.edit({ hidden: !can('USUARIOS.UPDATE'), onClick: (user) => drawer.open(user) }),
    {
      key: 'password',
      label: t('list.setPassword'),
      icon: <IconKey size={16} aria-hidden />,
      // One's own password is changed with the current one, from the forced-change screen.
      hidden: (user) => !can('USUARIOS.UPDATE') || isMe(user),
      onClick: (user) => password.open(user),
    },
    {
      key: 'reset-mfa',
      label: t('list.resetMfa'),
      icon: <IconShieldOff size={16} aria-hidden />,
      hidden: (user) => !can('USUARIOS.UPDATE') || isMe(user),
      onClick: (user) => resetMfa.open(user),
    },
    actions.remove({
      hidden: (user) => !can('USUARIOS.DELETE') || isMe(user),
      onClick: (user) => remove.open(user),
    }),
  ];

  const newUser = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(user) => user.users_id}
        rowLabel={fullNameOf}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <Select
            label={t('list.profileFilter')}
            placeholder={t('list.allProfiles')}
            data={(profiles.data ?? []).map((p) => ({
              value: String(p.profiles_id),
              label: p.name,
            }))}
            value={profileId ? String(profileId) : null}
            onChange={(value) => list.setFilter('profiles_id', value)}
            clearable
            w={{ base: '100%', xs: 200 }}
          />
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newUser,
          icon: <IconUsers size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={620}
      />
      <UserFormDrawer opened={drawer.opened} onClose={drawer.close} me={me} user={drawer.target} />
      <SetPasswordDrawer opened={password.opened} onClose={password.close} user={password.target} />
      <ConfirmDialog
        opened={resetMfa.opened}
        onClose={resetMfa.close}
        title={t('resetMfa.title', { name: resetMfa.target ? fullNameOf(resetMfa.target) : '' })}
        confirmLabel={t('resetMfa.confirm')}
        confirmColor="red"
        onConfirm={() => resetMfa.target && resetMfaCall.mutateAsync(resetMfa.target.users_id)}
      >
        {t('resetMfa.description')}
      </ConfirmDialog>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target ? fullNameOf(remove.target) : '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteUser.mutateAsync(remove.target.users_id)}
      />
    </>
  );
}
