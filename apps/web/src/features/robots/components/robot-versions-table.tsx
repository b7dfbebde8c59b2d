import { Badge, Code, Group, Text } from '@mantine/core';
import { IconDownload, IconHistory, IconPackage, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RobotVersion } from '@rota/contract';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn, type RowAction } from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteRobotVersion } from '../api/delete-robot-version';
import { useDownloadRobotVersion } from '../api/download-robot-version';
import { robotVersionsQueryOptions } from '../api/list-robot-versions';
import { useMakeRobotVersionCurrent } from '../api/update-robot-version';
import '../i18n';

const VERSION_SORTS = ['created_at', 'version'] as const;

type RobotVersionsTableProps = {
  robotId: number;
  prefix?: string;
  /** The "Enviar versão" button for the empty state. */
  uploadAction?: ReactNode;
};

/** A robot's Repository tab: every version, newest first; make current (rollback), download, delete. */
export function RobotVersionsTable({ robotId, prefix, uploadAction }: RobotVersionsTableProps) {
  const { t } = useTranslation('robots');
  const { t: tc } = useTranslation();
  const can = useCan();
  const format = useFormat();
  const list = useListState({
    sorts: VERSION_SORTS,
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    prefix,
  });
  const query = useQuery(
    robotVersionsQueryOptions({
      rota_robots_id: robotId,
      page: list.query.page,
      per_page: list.query.per_page,
      sort: list.query.sort,
      order: list.query.order,
    }),
  );
  const makeCurrentDialog = useDialog<RobotVersion>();
  const remove = useDialog<RobotVersion>();
  const makeCurrent = useMakeRobotVersionCurrent();
  const deleteVersion = useDeleteRobotVersion();
  const download = useDownloadRobotVersion();

  const columns: DataTableColumn<RobotVersion>[] = [
    {
      key: 'version',
      header: t('versions.version'),
      sort: 'version',
      render: (version) => (
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} size="sm">
            {version.version}
          </Text>
          {version.current ? (
            <Badge color="teal" variant="light" radius="sm" tt="none">
              {t('versions.isCurrent')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: 'notes',
      header: t('versions.notes'),
      visibleFrom: 'sm',
      render: (version) => (
        <Text size="sm" c={version.notes ? undefined : 'dimmed'} lineClamp={2} maw={320}>
          {version.notes ?? '—'}
        </Text>
      ),
    },
    {
      key: 'file',
      header: t('versions.fileName'),
      render: (version) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {version.file_name}
        </Text>
      ),
    },
    {
      key: 'size',
      header: t('versions.size'),
      align: 'right',
      render: (version) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {format.bytes(version.size_bytes)}
        </Text>
      ),
    },
    {
      key: 'sha256',
      header: t('versions.sha256'),
      visibleFrom: 'md',
      render: (version) => <Code title={version.sha256}>{version.sha256.slice(0, 12)}…</Code>,
    },
    {
      key: 'created_at',
      header: t('versions.uploadedAt'),
      sort: 'created_at',
      render: (version) => <DateTimeText value={version.created_at} />,
    },
  ];

  const rowActions: RowAction<RobotVersion>[] = [
    {
      key: 'current',
      label: t('versions.makeCurrent'),
      icon: <IconHistory size={16} aria-hidden />,
      hidden: (version) => version.current || !can('ROBOS.UPDATE'),
      onClick: (version) => makeCurrentDialog.open(version),
    },
    {
      key: 'download',
      label: t('versions.download'),
      icon: <IconDownload size={16} aria-hidden />,
      onClick: (version) => download.mutate(version),
    },
    {
      key: 'delete',
      label: tc('common.actions.delete'),
      icon: <IconTrash size={16} aria-hidden />,
      color: 'red',
      hidden: !can('ROBOS.DELETE'),
      // The server refuses it (409 version_in_use): make another one current first.
      disabled: (version) => version.current,
      onClick: (version) => remove.open(version),
    },
  ];

  return (
    <>
      <DataTable
        label={t('versions.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(version) => version.rota_robot_versions_id}
        rowLabel={(version) => version.version}
        empty={{
          title: t('versions.emptyTitle'),
          description: t('versions.emptyDescription'),
          action: uploadAction,
          icon: <IconPackage size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <ConfirmDialog
        opened={makeCurrentDialog.opened}
        onClose={makeCurrentDialog.close}
        title={t('versions.makeCurrentTitle', { name: makeCurrentDialog.target?.version ?? '' })}
        confirmLabel={t('versions.makeCurrent')}
        onConfirm={() =>
          makeCurrentDialog.target && makeCurrent.mutateAsync(makeCurrentDialog.target)
        }
      >
        {t('versions.makeCurrentDescription')}
      </ConfirmDialog>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('versions.deleteTitle', { name: remove.target?.version ?? '' })}
        onConfirm={() => remove.target && deleteVersion.mutateAsync(remove.target)}
      />
    </>
  );
}
