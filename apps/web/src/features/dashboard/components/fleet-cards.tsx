import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { ACTIVITY_PATH } from '../../activity';
import { useCan } from '../../auth';
import { useDashboardTranslation } from '../i18n';

function Figure({
  label,
  value,
  color,
  loading,
}: {
  label: string;
  value: number | undefined;
  color?: string;
  loading: boolean;
}) {
  const format = useFormat();
  return (
    <Stack gap={0} role="group" aria-label={label}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      {loading ? (
        <Skeleton height={26} width={40} mt={4} />
      ) : (
        <Text fz={24} fw={700} lh={1.3} c={color}>
          {value === undefined ? '—' : format.number(value)}
        </Text>
      )}
    </Stack>
  );
}

/** The fleet beside the chart: agents and VMs, active (heard from in the last 30 s) or not. */
export function FleetCards({
  data,
  loading,
}: {
  data: Pick<Dashboard, 'agents' | 'vms' | 'stalled'> | undefined;
  loading: boolean;
}) {
  const t = useDashboardTranslation();
  const can = useCan();
  const canListAgents = can('AGENTES.LIST');
  return (
    <Stack gap="md" h="100%">
      {/* Who may not list agents and VMs does not see them counted (the server leaves them out). */}
      {canListAgents ? (
        <>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} style={{ flex: 1 }}>
            <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
              <Title order={2} fz="h4">
                {t('fleet.agents')}
              </Title>
              <Anchor component={Link} to="/node" size="sm">
                {t('fleet.viewAgents')}
              </Anchor>
            </Group>
            <SimpleGrid cols={2} spacing="sm">
              <Figure
                label={t('fleet.active')}
                value={data?.agents?.active}
                color="green"
                loading={loading}
              />
              <Figure
                label={t('fleet.inactive')}
                value={data?.agents?.inactive}
                loading={loading}
              />
            </SimpleGrid>
          </Paper>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} style={{ flex: 1 }}>
            <Title order={2} fz="h4" mb="sm">
              {t('fleet.vms')}
            </Title>
            <SimpleGrid cols={3} spacing="sm">
              <Figure label={t('fleet.total')} value={data?.vms?.total} loading={loading} />
              <Figure
                label={t('fleet.activeVms')}
                value={data?.vms?.active}
                color="green"
                loading={loading}
              />
              <Figure
                label={t('fleet.inactiveVms')}
                value={data?.vms?.inactive}
                loading={loading}
              />
            </SimpleGrid>
          </Paper>
        </>
      ) : null}
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="stalled-card">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Figure
            label={t('fleet.stalled')}
            value={data?.stalled}
            color={data?.stalled ? 'orange' : undefined}
            loading={loading}
          />
          {can('HISTORIC.LIST') && data?.stalled ? (
            <Anchor component={Link} to={`${ACTIVITY_PATH}?stalled=true`} size="sm">
              {t('fleet.viewStalled')}
            </Anchor>
          ) : null}
        </Group>
      </Paper>
    </Stack>
  );
}
