import { Anchor, Badge, Button, Code, Select, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { robotSortColumns, type Robot } from '@rota/contract';
import { BooleanBadge } from '../../../components/badges';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  CreateButton,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { lazyDialog } from '../../../components/lazy-dialog';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteRobot } from '../api/delete-robot';
import { robotsQueryOptions, type RobotListBody } from '../api/list-robots';
import { ROBOT_FIELDS_PATH, robotPath } from '../paths';
import '../i18n';

// The form (react-hook-form, zod and the robot's schemas) loads when the drawer first opens,
// not before the list's first paint.
const RobotFormDrawer = lazyDialog(() =>
  import('../components/robot-form-drawer').then((module) => module.RobotFormDrawer),
);

/** `/robot`: the client's robots as a server-side list, "Novo robô" in the header. */
export default function RobotsPage() {
  const { t } = useTranslation('robots');
  const { t: tc } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const list = useListState({
    sorts: robotSortColumns,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['active'],
  });
  const active = list.filters.active;
  const body: RobotListBody = {
    ...list.query,
    ...(active === 'true' || active === 'false' ? { active: active === 'true' } : {}),
  };
  const query = useQuery(robotsQueryOptions(body));
  // The drawer's target: a robot to edit, or null to create one.
  const drawer = useDialog<Robot | null>();
  const remove = useDialog<Robot>();
  const deleteRobot = useDeleteRobot();
  const canCreate = can('ROBOS.CREATE');

  const columns: DataTableColumn<Robot>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (robot) => (
        <Stack gap={0} miw={0}>
          <Anchor component={Link} to={robotPath(robot.rota_robots_id)} fw={600} size="sm">
            {robot.name}
          </Anchor>
          {robot.description ? (
            <Text size="xs" c="dimmed" lineClamp={1} maw={320}>
              {robot.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'executor',
      header: t('columns.executor'),
      sort: 'executor',
      render: (robot) => (
        <Code style={{ whiteSpace: 'nowrap' }} title={robot.executor}>
          {robot.executor.length > 40 ? `${robot.executor.slice(0, 40)}…` : robot.executor}
        </Code>
      ),
    },
    {
      key: 'version',
      header: t('columns.currentVersion'),
      render: (robot) =>
        robot.current_version ? (
          <Badge variant="outline" radius="sm" tt="none">
            {robot.current_version.version}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            {t('noVersion')}
          </Text>
        ),
    },
    {
      key: 'active',
      header: t('columns.status'),
      sort: 'active',
      render: (robot) => (
        <BooleanBadge
          value={robot.active}
          trueLabel={t('status.active')}
          falseLabel={t('status.inactive')}
        />
      ),
    },
    {
      key: 'updated_at',
      header: t('columns.updated'),
      sort: 'updated_at',
      render: (robot) => <DateTimeText value={robot.updated_at} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Robot>[] = [
    {
      key: 'open',
      label: tc('common.actions.open'),
      icon: <IconExternalLink size={16} aria-hidden />,
      onClick: (robot) => void navigate(robotPath(robot.rota_robots_id)),
    },
    actions.edit({
      hidden: !can('ROBOS.UPDATE'),
      onClick: (robot) => drawer.open(robot),
    }),
    actions.remove({
      hidden: !can('ROBOS.DELETE'),
      onClick: (robot) => remove.open(robot),
    }),
  ];

  const newRobot = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.robot.title')}
        subtitle={tc('pages.robot.subtitle')}
        actions={
          <>
            <Button variant="default" component={Link} to={ROBOT_FIELDS_PATH}>
              {t('list.fieldsLink')}
            </Button>
            {can('ATIVIDADES.LIST') ? (
              <Button variant="default" component={Link} to="/task">
                {t('list.tasksLink')}
              </Button>
            ) : null}
            {newRobot}
          </>
        }
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(robot) => robot.rota_robots_id}
        rowLabel={(robot) => robot.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <Select
            label={t('list.statusFilter')}
            data={[
              { value: 'all', label: t('list.statusAll') },
              { value: 'true', label: t('list.statusActive') },
              { value: 'false', label: t('list.statusInactive') },
            ]}
            value={active === 'true' || active === 'false' ? active : 'all'}
            onChange={(value) => list.setFilter('active', value === 'all' ? null : value)}
            allowDeselect={false}
            w={{ base: '100%', xs: 160 }}
          />
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newRobot,
        }}
        rowActions={rowActions}
        onRowClick={(robot) => void navigate(robotPath(robot.rota_robots_id))}
      />
      <RobotFormDrawer opened={drawer.opened} onClose={drawer.close} robot={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteRobot.mutateAsync(remove.target.rota_robots_id)}
      />
    </>
  );
}
