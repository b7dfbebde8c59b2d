import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconBan, IconBolt, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Robot, Trigger, TriggerWithToken } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useNow } from '../../../lib/use-now';
import { OneTimeSecretModal, TimeAgo } from '../../api-keys';
import { useCan } from '../../auth';
import { robotFieldsOfRobotQueryOptions } from '../../robots';
import { useDeleteTrigger } from '../api/delete-trigger';
import { TRIGGER_SORTS, triggersQueryOptions } from '../api/list-triggers';
import { useRevokeTrigger } from '../api/revoke-trigger';
import { useRotateTrigger } from '../api/rotate-trigger';
import { useTriggersTranslation } from '../i18n';
import { triggerFireExample } from './trigger-fire-example';
import { TriggerFormDrawer } from './trigger-form-drawer';

const STATUS_COLORS = { active: 'teal', revoked: 'red' } as const;

/**
 * A robot's run triggers, on its page: other systems queue a run with a trigger's
 * token. ROBOS.UPDATE makes, renames, rotates and revokes them; ROBOS.DELETE deletes them.
 */
export function RobotTriggers({ robot }: { robot: Robot }) {
  const t = useTriggersTranslation();
  const can = useCan();
  const now = useNow(30_000);
  const list = useListState({
    sorts: TRIGGER_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    prefix: 'triggers_',
  });
  const query = useQuery(
    triggersQueryOptions({ ...list.query, rota_robots_id: robot.rota_robots_id }),
  );
  // The example fire's task data takes the robot's fields (any object when it has none).
  const fields = useQuery(robotFieldsOfRobotQueryOptions(robot.rota_robots_id));
  const form = useDialog<Trigger | null>();
  const rotate = useDialog<Trigger>();
  const revoke = useDialog<Trigger>();
  const remove = useDialog<Trigger>();
  const [revealed, setRevealed] = useState<TriggerWithToken | null>(null);
  const [revealOpened, setRevealOpened] = useState(false);
  const rotateTrigger = useRotateTrigger();
  const revokeTrigger = useRevokeTrigger();
  const deleteTrigger = useDeleteTrigger();
  const canUpdate = can('ROBOS.UPDATE');
  const canDelete = can('ROBOS.DELETE');
  const reveal = (trigger: TriggerWithToken) => {
    setRevealed(trigger);
    setRevealOpened(true);
  };

  const columns: DataTableColumn<Trigger>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (trigger) => (
        <Text size="sm" fw={600}>
          {trigger.name}
        </Text>
      ),
    },
    {
      key: 'token',
      header: t('columns.token'),
      render: (trigger) => (
        <Text size="sm" ff="monospace" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          …{trigger.token_hint}
        </Text>
      ),
    },
    {
      key: 'last_fired_at',
      header: t('columns.lastFired'),
      render: (trigger) => (
        <TimeAgo value={trigger.last_fired_at} now={now} empty={t('columns.neverFired')} />
      ),
    },
    {
      key: 'status',
      header: t('columns.status'),
      render: (trigger) => (
        <StatusBadge
          status={trigger.revoked_at ? 'revoked' : 'active'}
          colors={STATUS_COLORS}
          labels={{ active: t('status.active'), revoked: t('status.revoked') }}
        />
      ),
    },
  ];

  const actions = useStandardRowActions();
  const revoked = (trigger: Trigger) => trigger.revoked_at !== null;
  const rowActions: RowAction<Trigger>[] = [
    actions.edit({
      hidden: !canUpdate,
      onClick: (trigger) => form.open(trigger),
    }),
    {
      key: 'rotate',
      label: t('actions.rotate'),
      icon: <IconRefresh size={16} aria-hidden />,
      // A revoked trigger comes back with a new token.
      hidden: !canUpdate,
      onClick: (trigger) => rotate.open(trigger),
    },
    {
      key: 'revoke',
      label: t('actions.revoke'),
      icon: <IconBan size={16} aria-hidden />,
      color: 'red',
      hidden: (trigger) => !canUpdate || revoked(trigger),
      onClick: (trigger) => revoke.open(trigger),
    },
    actions.remove({ hidden: !canDelete, onClick: (trigger) => remove.open(trigger) }),
  ];

  const newTrigger = canUpdate ? (
    <Button
      variant="light"
      leftSection={<IconPlus size={16} aria-hidden />}
      onClick={() => form.open(null)}
    >
      {t('list.new')}
    </Button>
  ) : null;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} fz="h4">
            {t('section.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('section.description')}
          </Text>
        </div>
        {newTrigger}
      </Group>
      <DataTable
        label={t('list.label', { robot: robot.name })}
        columns={columns}
        query={query}
        list={list}
        rowKey={(trigger) => trigger.rota_triggers_id}
        rowLabel={(trigger) => trigger.name}
        empty={{
          title: t('list.emptyTitle'),
          description: canUpdate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newTrigger,
          icon: <IconBolt size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={520}
      />
      <TriggerFormDrawer
        opened={form.opened}
        onClose={form.close}
        robotId={robot.rota_robots_id}
        trigger={form.target}
        onCreated={reveal}
      />
      <OneTimeSecretModal
        opened={revealOpened}
        onClose={() => setRevealOpened(false)}
        onExited={() => setRevealed(null)}
        title={t('token.title', { name: revealed?.name ?? '' })}
        label={t('token.label')}
        secret={revealed?.token ?? ''}
        warning={t('token.warning')}
        example={triggerFireExample(revealed?.token ?? '', fields.data)}
        exampleHint={t('token.exampleHint')}
      />
      <ConfirmDialog
        opened={rotate.opened}
        onClose={rotate.close}
        title={t('rotate.title', { name: rotate.target?.name ?? '' })}
        confirmLabel={t('rotate.confirm')}
        confirmColor="orange"
        onConfirm={async () => {
          if (!rotate.target) return;
          reveal((await rotateTrigger.mutateAsync(rotate.target.rota_triggers_id)).data);
        }}
      >
        {t('rotate.description')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={revoke.opened}
        onClose={revoke.close}
        title={t('revoke.title', { name: revoke.target?.name ?? '' })}
        confirmLabel={t('revoke.confirm')}
        confirmColor="red"
        onConfirm={() => revoke.target && revokeTrigger.mutateAsync(revoke.target.rota_triggers_id)}
      >
        {t('revoke.description')}
      </ConfirmDialog>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteTrigger.mutateAsync(remove.target.rota_triggers_id)}
      />
    </Stack>
  );
}
