import { Text } from '@mantine/core';
import { IconVariable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Parameter } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  CreateButton,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteParameter } from '../api/delete-parameter';
import { PARAMETER_SORTS, parametersQueryOptions } from '../api/list-parameters';
import { ParameterFormDrawer } from '../components/parameter-form-drawer';
import { ParameterValue } from '../components/parameter-value';
import { useParametersTranslation } from '../i18n';

/** `/parameter`: named values and secret passwords robots read; "Novo parâmetro" in the header. */
export default function ParametersPage() {
  const t = useParametersTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const list = useListState({ sorts: PARAMETER_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const query = useQuery(parametersQueryOptions(list.query));
  // The drawer's target: a parameter to edit, or null to create one.
  const drawer = useDialog<Parameter | null>();
  const remove = useDialog<Parameter>();
  const deleteParameter = useDeleteParameter();
  const canCreate = can('PARAMETROS.CREATE');

  const columns: DataTableColumn<Parameter>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (parameter) => (
        <Text size="sm" fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {parameter.name}
        </Text>
      ),
    },
    {
      key: 'value',
      header: t('columns.value'),
      render: (parameter) => <ParameterValue parameter={parameter} />,
    },
    {
      key: 'description',
      header: t('columns.description'),
      render: (parameter) => (
        <Text
          size="sm"
          c={parameter.description ? undefined : 'dimmed'}
          lineClamp={2}
          maw={320}
          title={parameter.description ?? undefined}
        >
          {parameter.description ?? '—'}
        </Text>
      ),
    },
    {
      key: 'updated_at',
      header: t('columns.updated'),
      sort: 'updated_at',
      render: (parameter) => <DateTimeText value={parameter.updated_at} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Parameter>[] = [
    actions.edit({
      hidden: !can('PARAMETROS.UPDATE'),
      onClick: (parameter) => drawer.open(parameter),
    }),
    actions.remove({
      hidden: !can('PARAMETROS.DELETE'),
      onClick: (parameter) => remove.open(parameter),
    }),
  ];

  const newParameter = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.parameter.title')}
        subtitle={tc('pages.parameter.subtitle')}
        actions={newParameter}
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(parameter) => parameter.rota_parameters_id}
        rowLabel={(parameter) => parameter.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newParameter,
          icon: <IconVariable size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <ParameterFormDrawer
        opened={drawer.opened}
        onClose={drawer.close}
        parameter={drawer.target}
      />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() =>
          remove.target && deleteParameter.mutateAsync(remove.target.rota_parameters_id)
        }
      />
    </>
  );
}
