import { Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OidcMapping } from '@rota/contract';
import { AccessDenied } from '../../../components/access-denied';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  useStandardRowActions,
  type DataTableColumn,
  type RowAction,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { isApiError } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useDeleteOidcMapping } from '../api/delete-mapping';
import {
  OIDC_MAPPING_SORTS,
  oidcMappingsQueryOptions,
  type OidcMappingListBody,
} from '../api/list-mappings';
import { MappingFormDrawer } from '../components/mapping-form-drawer';
import '../i18n';

/**
 * `/client/sso`: groups of the identity provider mapped to a client and one of its profiles,
 * for platform administrators only; the server refuses anybody else with a 403,
 * shown as the page's denial, as on the Clients page beside it.
 */
export default function MappingsPage() {
  const { t } = useTranslation('oidc');
  const list = useListState({
    sorts: OIDC_MAPPING_SORTS,
    defaultSort: 'claim_value',
    defaultOrder: 'asc',
  });
  const body: OidcMappingListBody = { ...list.query };
  const query = useQuery(oidcMappingsQueryOptions(body));
  // The drawer's target: a mapping to edit, or null to create one.
  const drawer = useDialog<OidcMapping | null>();
  const remove = useDialog<OidcMapping>();
  const deleteMapping = useDeleteOidcMapping();
  const actions = useStandardRowActions();

  if (query.isError && isApiError(query.error) && query.error.status === 403) {
    return (
      <>
        <PageHeader title={t('page.title')} subtitle={t('page.deniedHint')} />
        <AccessDenied />
      </>
    );
  }

  const columns: DataTableColumn<OidcMapping>[] = [
    {
      key: 'claim_value',
      header: t('columns.group'),
      sort: 'claim_value',
      render: (mapping) => (
        <Text size="sm" fw={600} ff="monospace">
          {mapping.claim_value}
        </Text>
      ),
    },
    {
      key: 'client',
      header: t('columns.client'),
      render: (mapping) => <Text size="sm">{mapping.client_name}</Text>,
    },
    {
      key: 'profile',
      header: t('columns.profile'),
      render: (mapping) => <Text size="sm">{mapping.profile_name}</Text>,
    },
    {
      key: 'autoLink',
      header: t('columns.autoLink'),
      visibleFrom: 'md',
      render: (mapping) =>
        mapping.auto_link_domains.length > 0 ? (
          <Text size="sm" ff="monospace">
            {mapping.auto_link_domains.join(', ')}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('columns.autoLinkNone')}
          </Text>
        ),
    },
    {
      key: 'created',
      header: t('columns.created'),
      sort: 'created_at',
      visibleFrom: 'sm',
      render: (mapping) => <DateTimeText value={mapping.created_at} />,
    },
  ];

  const rowActions: RowAction<OidcMapping>[] = [
    actions.edit({ onClick: (mapping) => drawer.open(mapping) }),
    actions.remove({ onClick: (mapping) => remove.open(mapping) }),
  ];

  const newMapping = <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>;

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} actions={newMapping} />
      <Text size="sm" c="dimmed" mb="md">
        {t('list.hint')}
      </Text>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(mapping) => mapping.oidc_mappings_id}
        rowLabel={(mapping) => mapping.claim_value}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          action: newMapping,
          icon: <IconKey size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={560}
      />
      <MappingFormDrawer opened={drawer.opened} onClose={drawer.close} mapping={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title')}
        description={t('delete.message', {
          group: remove.target?.claim_value ?? '',
          client: remove.target?.client_name ?? '',
        })}
        confirmLabel={t('delete.confirm')}
        onConfirm={() => remove.target && deleteMapping.mutateAsync(remove.target.oidc_mappings_id)}
      />
    </>
  );
}
