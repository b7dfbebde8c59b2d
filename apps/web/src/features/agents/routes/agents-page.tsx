import { useState } from 'react';
import { Badge, Button, Code, Select, Stack, Text } from '@mantine/core';
import { IconDevices, IconDownload, IconKey, IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { automaticLabels, CONNECTIVITY, type Agent, type Connectivity } from '@rota/contract';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  CreateButton,
  useStandardRowActions,
} from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { ConnectivityBadge } from '../../vms';
import { VmSelect } from '../../vms';
import { VMS_PATH } from '../../vms';
import { useDeleteAgent } from '../api/delete-agent';
import { AGENT_SORTS, agentsQueryOptions, type AgentListBody } from '../api/list-agents';
import { useRotateAgentToken } from '../api/rotate-agent-token';
import { AgentDownloadDialog } from '../components/agent-download-dialog';
import { AgentFacts, LowDiskBadge } from '../components/agent-facts';
import { LabelBadges } from '../../../components/labels-input';
import { AgentFormDrawer } from '../components/agent-form-drawer';
import { UpdateAvailableBadge, useAgentUpdates } from '../components/agent-updates';
import { AgentTokenModal, type RevealedToken } from '../components/agent-token-modal';
import { LastSeen } from '../components/last-seen';
import { useAgentsTranslation } from '../i18n';

function isConnectivity(value: string | undefined): value is Connectivity {
  return (CONNECTIVITY as readonly string[]).includes(value ?? '');
}

/**
 * `/node`: the client's agents, filtered by VM and connectivity; "Novo agente" in the header. A
 * created agent's token, and a rotated one, show once in a modal.
 */
export default function AgentsPage() {
  const t = useAgentsTranslation();
  const format = useFormat();
  const { t: tc } = useTranslation();
  const can = useCan();
  const list = useListState({
    sorts: AGENT_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['rota_vms_id', 'connectivity'],
  });
  const filteredVm = Number(list.filters.rota_vms_id);
  const vmFilter = Number.isInteger(filteredVm) && filteredVm > 0 ? filteredVm : undefined;
  const connectivity = isConnectivity(list.filters.connectivity)
    ? list.filters.connectivity
    : undefined;
  const body: AgentListBody = {
    ...list.query,
    ...(vmFilter !== undefined ? { rota_vms_id: vmFilter } : {}),
    ...(connectivity ? { connectivity } : {}),
  };
  const query = useQuery(agentsQueryOptions(body));
  // The drawer's target: an agent to edit, or null to create one.
  const drawer = useDialog<Agent | null>();
  const remove = useDialog<Agent>();
  const rotate = useDialog<Agent>();
  const deleteAgent = useDeleteAgent();
  const rotateToken = useRotateAgentToken();
  const [revealed, setRevealed] = useState<RevealedToken | null>(null);
  const [tokenOpened, setTokenOpened] = useState(false);
  // "Download agent": from the header (no token), or from the token modal (with its token).
  const [downloadOpened, setDownloadOpened] = useState(false);
  const [downloadToken, setDownloadToken] = useState<RevealedToken | null>(null);
  const canCreate = can('AGENTES.CREATE');
  const connectivityLabels: Record<Connectivity, string> = {
    active: t('connectivity.active'),
    inactive: t('connectivity.inactive'),
  };

  function reveal(next: RevealedToken) {
    setRevealed(next);
    setTokenOpened(true);
  }

  const columns: DataTableColumn<Agent>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (agent) => (
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600}>
            {agent.name}
          </Text>
          {agent.hostname ? (
            <Text size="xs" c="dimmed" ff="monospace">
              {agent.hostname}
            </Text>
          ) : null}
          <LowDiskBadge agent={agent} />
          <UpdateAvailableBadge agent={agent} />
        </Stack>
      ),
    },
    {
      key: 'vm',
      header: t('columns.vm'),
      render: (agent) => <Text size="sm">{agent.rota_vms_name}</Text>,
    },
    {
      key: 'connectivity',
      header: t('columns.connectivity'),
      render: (agent) =>
        agent.connectivity === 'active' && agent.connection_lost_at ? (
          <Badge
            color="red"
            variant="light"
            radius="sm"
            tt="none"
            miw="max-content"
            title={t('connectivity.connectionLostSince', {
              when: format.dateTime(agent.connection_lost_at),
            })}
            data-testid="agent-connection-lost"
          >
            {t('connectivity.connectionLost')}
          </Badge>
        ) : (
          <ConnectivityBadge value={agent.connectivity} labels={connectivityLabels} />
        ),
    },
    {
      key: 'last_seen_at',
      header: t('columns.lastSeen'),
      sort: 'last_seen_at',
      render: (agent) => <LastSeen value={agent.last_seen_at} />,
    },
    {
      key: 'labels',
      header: t('columns.labels'),
      visibleFrom: 'sm',
      render: (agent) => (
        <LabelBadges
          labels={agent.effective_labels}
          // Its OS and architecture, unless an administrator set the same label too.
          muted={automaticLabels(agent.facts?.os, agent.facts?.arch).filter(
            (label) => !agent.labels.includes(label),
          )}
        />
      ),
    },
    {
      key: 'machine',
      header: t('columns.machine'),
      visibleFrom: 'md',
      render: (agent) => <AgentFacts agent={agent} />,
    },
    {
      key: 'version',
      header: t('columns.version'),
      visibleFrom: 'sm',
      render: (agent) =>
        agent.version ? (
          <Code>{agent.version}</Code>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
  ];

  const actions = useStandardRowActions();
  const updates = useAgentUpdates(vmFilter);
  const rowActions: RowAction<Agent>[] = [
    actions.edit({
      hidden: !can('AGENTES.UPDATE'),
      onClick: (agent) => drawer.open(agent),
    }),
    {
      key: 'rotate',
      label: t('actions.rotateToken'),
      icon: <IconKey size={16} aria-hidden />,
      hidden: !can('AGENTES.UPDATE'),
      onClick: (agent) => rotate.open(agent),
    },
    updates.rowAction,
    actions.remove({
      hidden: !can('AGENTES.DELETE'),
      onClick: (agent) => remove.open(agent),
    }),
  ];

  const newAgent = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.node.title')}
        subtitle={tc('pages.node.subtitle')}
        actions={
          <>
            <Button
              variant="default"
              component={Link}
              to={VMS_PATH}
              leftSection={<IconServer size={16} aria-hidden />}
            >
              {t('list.vmsLink')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => {
                setDownloadToken(null);
                setDownloadOpened(true);
              }}
            >
              {t('list.download')}
            </Button>
            {updates.header}
            {newAgent}
          </>
        }
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(agent) => agent.rota_nodes_id}
        rowLabel={(agent) => agent.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            <VmSelect
              label={t('list.vmFilter')}
              placeholder={t('list.allVms')}
              clearable
              value={vmFilter ?? null}
              onChange={(id) => list.setFilter('rota_vms_id', id)}
              w={{ base: '100%', xs: 220 }}
            />
            <Select
              label={t('list.connectivityFilter')}
              data={[
                { value: 'all', label: t('list.connectivityAll') },
                { value: 'active', label: connectivityLabels.active },
                { value: 'inactive', label: connectivityLabels.inactive },
              ]}
              value={connectivity ?? 'all'}
              onChange={(value) => list.setFilter('connectivity', value === 'all' ? null : value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 170 }}
            />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newAgent,
          icon: <IconDevices size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <AgentFormDrawer
        opened={drawer.opened}
        onClose={drawer.close}
        agent={drawer.target}
        onCreated={reveal}
      />
      <ConfirmDialog
        opened={rotate.opened}
        onClose={rotate.close}
        title={t('rotate.title', { name: rotate.target?.name ?? '' })}
        confirmLabel={t('rotate.confirm')}
        confirmColor="orange"
        onConfirm={async () => {
          const agent = rotate.target;
          if (!agent) return;
          const answer = await rotateToken.mutateAsync(agent.rota_nodes_id);
          rotateToken.reset();
          reveal({ name: agent.name, token: answer.data.token });
        }}
      >
        {t('rotate.description')}
      </ConfirmDialog>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteAgent.mutateAsync(remove.target.rota_nodes_id)}
      />
      {updates.dialogs}
      <AgentTokenModal
        opened={tokenOpened}
        onClose={() => setTokenOpened(false)}
        onExited={() => setRevealed(null)}
        revealed={revealed}
        onInstall={() => {
          setDownloadToken(revealed);
          setDownloadOpened(true);
        }}
      />
      <AgentDownloadDialog
        opened={downloadOpened}
        onClose={() => {
          setDownloadOpened(false);
          // The token leaves this dialog's memory with it; the token modal still holds its own.
          setDownloadToken(null);
        }}
        token={downloadToken?.token}
        agentName={downloadToken?.name}
      />
    </>
  );
}
