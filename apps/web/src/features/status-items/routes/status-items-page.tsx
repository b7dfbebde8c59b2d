import { Text } from '@mantine/core';
import { IconPalette } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StatusItem } from '@rota/contract';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useActivityTranslation } from '../../activity';
import { useCan } from '../../auth';
import { STATUS_ITEM_SORTS, statusItemsQueryOptions } from '../api/list-status-items';
import { ColorValue, StatusItemBadge } from '../components/status-item-badge';
import { StatusItemFormDrawer } from '../components/status-item-form-drawer';
import { useStatusItemsTranslation } from '../i18n';

/**
 * `/connector` (also `/configuration`): the configuration items, one per execution status, with
 * the dashboard category it counts in, its label and its colour. Items are edited, never
 * created or deleted, so the header has no primary action.
 */
export default function StatusItemsPage() {
  const t = useStatusItemsTranslation();
  const ta = useActivityTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const list = useListState({
    sorts: STATUS_ITEM_SORTS,
    defaultSort: 'status',
    defaultOrder: 'asc',
  });
  const query = useQuery(statusItemsQueryOptions(list.query));
  const drawer = useDialog<StatusItem>();
  const statusName = (item: StatusItem) => ta(`status.${item.status}`);

  const columns: DataTableColumn<StatusItem>[] = [
    {
      key: 'status',
      header: t('columns.status'),
      sort: 'status',
      render: (item) => (
        <Text size="sm" fw={600}>
          {statusName(item)}
        </Text>
      ),
    },
    {
      key: 'preview',
      header: t('columns.preview'),
      render: (item) => (
        <StatusItemBadge color={item.color} label={item.label ?? statusName(item)} />
      ),
    },
    {
      key: 'category',
      header: t('columns.category'),
      sort: 'category',
      render: (item) => <Text size="sm">{t(`categories.${item.category}`)}</Text>,
    },
    {
      key: 'label',
      header: t('columns.label'),
      visibleFrom: 'sm',
      // The label it reads as: a blank label is the status's own name, so show that name (an
      // italic "Status name" on every row read as if nothing were set).
      render: (item) => (
        <Text size="sm">
          {item.label ?? statusName(item)}
          {item.label ? null : (
            <Text span size="xs" c="dimmed">
              {' '}
              {t('defaultLabel')}
            </Text>
          )}
        </Text>
      ),
    },
    {
      key: 'color',
      header: t('columns.color'),
      render: (item) => <ColorValue color={item.color} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<StatusItem>[] = [
    actions.edit({ hidden: !can('USUARIOS.UPDATE'), onClick: (item) => drawer.open(item) }),
  ];

  return (
    <>
      <PageHeader title={tc('pages.connector.title')} subtitle={tc('pages.connector.subtitle')} />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(item) => item.rota_status_items_id}
        rowLabel={statusName}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          icon: <IconPalette size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <StatusItemFormDrawer opened={drawer.opened} onClose={drawer.close} item={drawer.target} />
    </>
  );
}
