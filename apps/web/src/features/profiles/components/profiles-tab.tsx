import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PERMISSIONS, PERMISSION_AREAS, type Profile } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteProfile } from '../api/delete-profile';
import { PROFILE_SORTS, profilesQueryOptions, type ProfileListBody } from '../api/list-profiles';
import { areaCoverage } from './permission-matrix-state';
import { ProfileFormDrawer } from './profile-form-drawer';
import { ProfileInUseDialog } from './profile-in-use-dialog';
import '../i18n';

type ProfilesTabProps = {
  /** Set by the page: a profile to edit, or null to create one (its header's button). */
  drawer: ReturnType<typeof useDialog<Profile | null>>;
  /** Shows the users holding a profile (the users tab, filtered). */
  onShowUsers: (profile: Profile) => void;
};

/** The selected client's profiles: a name, a permission matrix, the users holding it. */
export function ProfilesTab({ drawer, onShowUsers }: ProfilesTabProps) {
  const { t } = useTranslation('profiles');
  const can = useCan();
  const format = useFormat();
  const list = useListState({ sorts: PROFILE_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const body: ProfileListBody = { ...list.query };
  const query = useQuery(profilesQueryOptions(body));
  const remove = useDialog<Profile>();
  const inUse = useDialog<Profile>();
  const deleteProfile = useDeleteProfile();
  const canCreate = can('USUARIOS.CREATE');

  const columns: DataTableColumn<Profile>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (profile) => (
        <Text size="sm" fw={600}>
          {profile.name}
        </Text>
      ),
    },
    {
      key: 'permissions',
      header: t('columns.permissions'),
      render: (profile) => {
        const full = PERMISSION_AREAS.filter(
          (area) => areaCoverage(profile.permissions, area) === 'all',
        );
        return (
          <Group gap={4} wrap="wrap">
            <Text size="sm" mr={4}>
              {t('permissionCount', {
                count: profile.permissions.length,
                total: PERMISSIONS.length,
              })}
            </Text>
            {full.length < PERMISSION_AREAS.length
              ? full.map((area) => (
                  <Badge
                    key={area}
                    size="xs"
                    variant="light"
                    radius="sm"
                    tt="none"
                    visibleFrom="md"
                  >
                    {t(`areas.${area}`)}
                  </Badge>
                ))
              : null}
          </Group>
        );
      },
    },
    {
      key: 'users',
      header: t('columns.users'),
      align: 'right',
      render: (profile) =>
        profile.users > 0 ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => onShowUsers(profile)}
            aria-label={t('usersOf', { name: profile.name })}
          >
            {format.number(profile.users)}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {format.number(0)}
          </Text>
        ),
    },
    {
      key: 'updated',
      header: t('columns.updated'),
      visibleFrom: 'sm',
      render: (profile) => <DateTimeText value={profile.updated_at} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Profile>[] = [
    actions.edit({ hidden: !can('USUARIOS.UPDATE'), onClick: (profile) => drawer.open(profile) }),
    actions.remove({
      hidden: !can('USUARIOS.DELETE'),
      // A profile in use cannot go; the dialog says why instead of a refusal after the fact.
      onClick: (profile) => (profile.users > 0 ? inUse.open(profile) : remove.open(profile)),
    }),
  ];

  return (
    <>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(profile) => profile.profiles_id}
        rowLabel={(profile) => profile.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          icon: <IconShieldLock size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={560}
      />
      <ProfileFormDrawer opened={drawer.opened} onClose={drawer.close} profile={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        onConfirm={() => remove.target && deleteProfile.mutateAsync(remove.target.profiles_id)}
      />
      <ProfileInUseDialog
        opened={inUse.opened}
        onClose={inUse.close}
        profile={inUse.target}
        onShowUsers={onShowUsers}
      />
    </>
  );
}
