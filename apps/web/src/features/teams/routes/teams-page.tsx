import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Team } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteTeam } from '../api/delete-team';
import { teamMembersQueryOptions, type TeamMembers } from '../api/get-team-members';
import { TEAM_SORTS, teamsQueryOptions } from '../api/list-teams';
import { TeamFormDrawer } from '../components/team-form-drawer';
import { useTeamsTranslation } from '../i18n';

/** `/team`: the client's teams with how many robots and users each gathers; "Nova equipe". */
export default function TeamsPage() {
  const t = useTeamsTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const format = useFormat();
  const queryClient = useQueryClient();
  const list = useListState({ sorts: TEAM_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const query = useQuery(teamsQueryOptions(list.query));
  // The drawer's target: a team to edit with its members, or null to create one.
  const drawer = useDialog<{ team: Team; members: TeamMembers } | null>();
  const remove = useDialog<Team>();
  const deleteTeam = useDeleteTeam();
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const canCreate = can('USUARIOS.CREATE');

  /** The edit form starts from the team's members: they are read before it opens. */
  async function edit(team: Team) {
    setLoadingId(team.teams_id);
    try {
      const members = await queryClient.fetchQuery({
        ...teamMembersQueryOptions(team.teams_id),
        staleTime: 0,
      });
      drawer.open({ team, members });
    } catch {
      // The API client already said what went wrong.
    } finally {
      setLoadingId(null);
    }
  }

  const count = (value: number) => (
    <Text size="sm" c={value > 0 ? undefined : 'dimmed'}>
      {format.number(value)}
    </Text>
  );

  const columns: DataTableColumn<Team>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (team) => (
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600}>
            {team.name}
          </Text>
          {team.description ? (
            <Text size="xs" c="dimmed" lineClamp={1} maw={320} title={team.description}>
              {team.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'robots',
      header: t('columns.robots'),
      align: 'right',
      render: (team) => count(team.robots),
    },
    {
      key: 'users',
      header: t('columns.users'),
      align: 'right',
      render: (team) => count(team.users),
    },
    {
      key: 'created_at',
      header: t('columns.created'),
      sort: 'created_at',
      render: (team) => <DateTimeText value={team.created_at} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Team>[] = [
    actions.edit({
      hidden: !can('USUARIOS.UPDATE'),
      disabled: (team) => loadingId === team.teams_id,
      onClick: (team) => void edit(team),
    }),
    actions.remove({
      hidden: !can('USUARIOS.DELETE'),
      onClick: (team) => remove.open(team),
    }),
  ];

  const newTeam = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.team.title')}
        subtitle={tc('pages.team.subtitle')}
        actions={newTeam}
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(team) => team.teams_id}
        rowLabel={(team) => team.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newTeam,
          icon: <IconUsersGroup size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <TeamFormDrawer opened={drawer.opened} onClose={drawer.close} team={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteTeam.mutateAsync(remove.target.teams_id)}
      />
    </>
  );
}
