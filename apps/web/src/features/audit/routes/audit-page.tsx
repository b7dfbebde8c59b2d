import { Badge, Code, Group, Select, Text } from '@mantine/core';
import { IconEye, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditLog } from '@rota/contract';
import { DataTable, type DataTableColumn, type RowAction } from '../../../components/data-table';
import { DateRangeFilter, dateRangeQuery } from '../../../components/date-range-filter';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { AUDIT_SORTS, auditLogsQueryOptions, type AuditLogListBody } from '../api/list-audit-logs';
import { AuditDetailDrawer } from '../components/audit-detail-drawer';
import { AUDIT_ACTION_COLORS, AUDIT_ENTITIES, isAuditEntity } from '../components/audit-labels';
import { isAuditAction, useAuditLabels } from '../components/use-audit-labels';
import '../i18n';

/**
 * `/audit`: who changed what in the selected client, newest first, read only. A row opens its
 * record with the before and after side by side.
 */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const labels = useAuditLabels();
  const list = useListState({
    sorts: AUDIT_SORTS,
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    filters: ['action', 'entity', 'startDate', 'endDate'],
  });
  const { action, entity, startDate, endDate } = list.filters;
  const body: AuditLogListBody = {
    ...list.query,
    ...(isAuditAction(action) ? { action } : {}),
    ...(entity ? { entity } : {}),
    ...dateRangeQuery({ startDate, endDate }),
  };
  const query = useQuery(auditLogsQueryOptions(body));
  const detail = useDialog<AuditLog>();

  const columns: DataTableColumn<AuditLog>[] = [
    {
      key: 'when',
      header: t('columns.when'),
      sort: 'created_at',
      render: (record) => <DateTimeText value={record.created_at} />,
    },
    {
      key: 'who',
      header: t('columns.who'),
      render: (record) =>
        record.user_name ? (
          <div>
            <Text size="sm">{record.user_name}</Text>
            {/* A change made through a personal API key names the key. */}
            {record.api_key_name ? (
              <Text size="xs" c="dimmed">
                {t('viaApiKey', { name: record.api_key_name })}
              </Text>
            ) : null}
          </div>
        ) : (
          <Text size="sm" c="dimmed">
            {t('system')}
          </Text>
        ),
    },
    {
      key: 'action',
      header: t('columns.action'),
      render: (record) => (
        <Badge
          variant="light"
          radius="sm"
          tt="none"
          miw="max-content"
          color={isAuditAction(record.action) ? AUDIT_ACTION_COLORS[record.action] : 'gray'}
        >
          {labels.action(record.action)}
        </Badge>
      ),
    },
    {
      key: 'entity',
      header: t('columns.entity'),
      render: (record) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{labels.entity(record.entity)}</Text>
          {record.entity_id ? <Code fz="xs">#{record.entity_id}</Code> : null}
        </Group>
      ),
    },
  ];

  const rowActions: RowAction<AuditLog>[] = [
    {
      key: 'view',
      label: t('list.view'),
      icon: <IconEye size={16} aria-hidden />,
      onClick: (record) => detail.open(record),
    },
  ];

  const rowName = (record: AuditLog) =>
    `${labels.action(record.action)} ${labels.entity(record.entity)}${
      record.entity_id ? ` #${record.entity_id}` : ''
    }`;

  return (
    <>
      <PageHeader title={tc('pages.audit.title')} subtitle={tc('pages.audit.subtitle')} />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(record) => record.audit_logs_id}
        rowLabel={rowName}
        filters={
          <>
            <DateRangeFilter list={list} />
            <Select
              label={t('list.actionFilter')}
              placeholder={t('list.all')}
              data={AUDIT_ACTIONS.map((value) => ({ value, label: labels.actions[value] }))}
              value={isAuditAction(action) ? action : null}
              onChange={(value) => list.setFilter('action', value)}
              clearable
              w={{ base: '100%', xs: 190 }}
            />
            <Select
              label={t('list.entityFilter')}
              placeholder={t('list.all')}
              data={AUDIT_ENTITIES.map((value) => ({ value, label: labels.entities[value] }))}
              value={isAuditEntity(entity) ? entity : null}
              onChange={(value) => list.setFilter('entity', value)}
              searchable
              clearable
              w={{ base: '100%', xs: 210 }}
            />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          icon: <IconHistory size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        onRowClick={(record) => detail.open(record)}
        minWidth={600}
      />
      <AuditDetailDrawer opened={detail.opened} onClose={detail.close} record={detail.target} />
    </>
  );
}
