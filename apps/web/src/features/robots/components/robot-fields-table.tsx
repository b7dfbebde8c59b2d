import { Badge, Code, Text } from '@mantine/core';
import { IconForms } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RobotField } from '@rota/contract';
import { BooleanBadge } from '../../../components/badges';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteRobotField } from '../api/delete-robot-field';
import { robotFieldsQueryOptions, type RobotFieldListBody } from '../api/list-robot-fields';
import { RobotName } from './robot-name';
import { RobotSelect } from './robot-select';
import '../i18n';

const FIELD_SORTS = ['name', 'label', 'type', 'created_at'] as const;

type RobotFieldsTableProps = {
  /** Only this robot's fields (its detail page); otherwise every robot's, with a robot filter. */
  robotId?: number;
  /** URL parameter prefix, for a page with more than one list. */
  prefix?: string;
  /** The "Novo campo" button for the empty state (hidden without ROBOS.CREATE). */
  createAction?: ReactNode;
  onEdit: (field: RobotField) => void;
};

/** Robot fields list, used by `/robot/field` and by a robot's Overview tab. */
export function RobotFieldsTable({ robotId, prefix, createAction, onEdit }: RobotFieldsTableProps) {
  const { t } = useTranslation('robots');
  const can = useCan();
  const list = useListState({
    sorts: FIELD_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: robotId === undefined ? ['rota_robots_id'] : [],
    prefix,
  });
  const filteredRobot = Number(list.filters.rota_robots_id);
  const robotFilter =
    robotId ?? (Number.isInteger(filteredRobot) && filteredRobot > 0 ? filteredRobot : undefined);
  const body: RobotFieldListBody = {
    ...list.query,
    ...(robotFilter !== undefined ? { rota_robots_id: robotFilter } : {}),
  };
  const query = useQuery(robotFieldsQueryOptions(body));
  const remove = useDialog<RobotField>();
  const deleteField = useDeleteRobotField();

  const columns: DataTableColumn<RobotField>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      sort: 'name',
      render: (field) => <Code>{field.name}</Code>,
    },
    {
      key: 'label',
      header: t('fields.fieldLabel'),
      sort: 'label',
      render: (field) => <Text size="sm">{field.label}</Text>,
    },
    {
      key: 'type',
      header: t('fields.type'),
      sort: 'type',
      render: (field) => (
        <Badge variant="light" color="grape" radius="sm" tt="none">
          {t(`fields.types.${field.type}`)}
        </Badge>
      ),
    },
    {
      key: 'required',
      header: t('fields.required'),
      render: (field) => (
        <BooleanBadge
          value={field.required}
          trueLabel={t('fields.required')}
          falseLabel={t('fields.optional')}
          trueColor="orange"
        />
      ),
    },
    ...(robotId === undefined
      ? [
          {
            key: 'robot',
            header: t('fields.robot'),
            render: (field: RobotField) => <RobotName id={field.rota_robots_id} />,
          },
        ]
      : []),
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<RobotField>[] = [
    actions.edit({
      hidden: !can('ROBOS.UPDATE'),
      onClick: onEdit,
    }),
    actions.remove({
      hidden: !can('ROBOS.DELETE'),
      onClick: (field) => remove.open(field),
    }),
  ];

  return (
    <>
      <DataTable
        label={t('fields.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(field) => field.rota_robot_fields_id}
        rowLabel={(field) => field.name}
        searchable
        searchPlaceholder={t('fields.searchPlaceholder')}
        filters={
          robotId === undefined ? (
            <RobotSelect
              label={t('fields.robotFilter')}
              placeholder={t('fields.allRobots')}
              clearable
              value={robotFilter ?? null}
              onChange={(id) => list.setFilter('rota_robots_id', id)}
              w={{ base: '100%', xs: 240 }}
            />
          ) : null
        }
        empty={{
          title: t('fields.emptyTitle'),
          description: t('fields.emptyDescription'),
          action: createAction,
          icon: <IconForms size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={560}
      />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('fields.deleteTitle', { name: remove.target?.name ?? '' })}
        description={t('fields.deleteDescription')}
        onConfirm={() =>
          remove.target && deleteField.mutateAsync(remove.target.rota_robot_fields_id)
        }
      />
    </>
  );
}
