import { Badge, Button, Switch } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Agent } from '@rota/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { RowAction } from '../../../components/data-table';
import { useDialog } from '../../../lib/use-dialog';
import { useCan } from '../../auth';
import {
  autoUpdateQueryOptions,
  useRequestAgentUpdate,
  useSetAutoUpdate,
} from '../api/agent-updates';
import { useAgentsTranslation } from '../i18n';

/** "Update available": a packaged agent older than the build this server ships. */
export function UpdateAvailableBadge({ agent }: { agent: Agent }) {
  const t = useAgentsTranslation();
  if (!agent.update_available) return null;
  return (
    <Badge
      color={agent.update_requested ? 'blue' : 'yellow'}
      variant="light"
      radius="sm"
      tt="none"
      w="fit-content"
      data-testid="agent-update-available"
    >
      {agent.update_requested ? t('updates.requested') : t('updates.available')}
    </Badge>
  );
}

type Target = { kind: 'agent'; agent: Agent } | { kind: 'vm'; vmId: number } | { kind: 'all' };

/**
 * The update actions of the Agents page, for whoever has AGENTES.UPDATE: "Update agent" in a
 * row's menu, "Update all agents" (or the filtered VM's) and the client's automatic updates in
 * the header, each change confirmed first. `vmId`: the VM the list is filtered by.
 */
export function useAgentUpdates(vmId: number | undefined) {
  const t = useAgentsTranslation();
  const can = useCan();
  const allowed = can('AGENTES.UPDATE');
  const confirm = useDialog<Target>();
  const auto = useDialog<boolean>();
  const request = useRequestAgentUpdate();
  const setAuto = useSetAutoUpdate();
  const autoState = useQuery({ ...autoUpdateQueryOptions(), enabled: allowed });

  const rowAction: RowAction<Agent> = {
    key: 'update',
    label: t('updates.updateAgent'),
    icon: <IconRefresh size={16} aria-hidden />,
    hidden: (agent) => !allowed || !agent.update_available,
    onClick: (agent) => confirm.open({ kind: 'agent', agent }),
  };

  const header = allowed ? (
    <>
      <Switch
        label={t('updates.automatic')}
        checked={autoState.data?.enabled ?? false}
        disabled={!autoState.data}
        onChange={(event) => auto.open(event.currentTarget.checked)}
        data-testid="agent-auto-update"
      />
      <Button
        variant="default"
        leftSection={<IconRefresh size={16} aria-hidden />}
        onClick={() => confirm.open(vmId === undefined ? { kind: 'all' } : { kind: 'vm', vmId })}
      >
        {vmId === undefined ? t('updates.updateAll') : t('updates.updateVm')}
      </Button>
    </>
  ) : null;

  const target = confirm.target;
  const dialogs = allowed ? (
    <>
      <ConfirmDialog
        opened={confirm.opened}
        onClose={confirm.close}
        title={
          target?.kind === 'agent'
            ? t('updates.confirmAgentTitle', { name: target.agent.name })
            : target?.kind === 'vm'
              ? t('updates.confirmVmTitle')
              : t('updates.confirmAllTitle')
        }
        confirmLabel={t('updates.confirm')}
        onConfirm={() => {
          if (!target) return;
          return request.mutateAsync(
            target.kind === 'agent'
              ? { ids: [target.agent.rota_nodes_id] }
              : target.kind === 'vm'
                ? { rota_vms_id: target.vmId }
                : { all: true },
          );
        }}
      >
        {t('updates.confirmDescription')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={auto.opened}
        onClose={auto.close}
        title={auto.target ? t('updates.autoOnTitle') : t('updates.autoOffTitle')}
        confirmLabel={auto.target ? t('updates.autoOn') : t('updates.autoOff')}
        onConfirm={() => setAuto.mutateAsync(auto.target ?? false)}
      >
        {auto.target ? t('updates.autoOnDescription') : t('updates.autoOffDescription')}
      </ConfirmDialog>
    </>
  ) : null;

  return { rowAction, header, dialogs };
}
