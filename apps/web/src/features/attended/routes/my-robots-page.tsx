import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlayerPlay, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MY_ROBOTS_LIMIT, type AttendedAgent, type MyRobot } from '@rota/contract';
import { AccessDenied } from '../../../components/access-denied';
import { LabelBadges } from '../../../components/labels-input';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useCan, useCurrentUser } from '../../auth';
import { ConnectivityBadge } from '../../vms';
import { myRobotsQueryOptions } from '../api/list-my-robots';
import { AttendedRunDrawer } from '../components/attended-run-drawer';
import '../i18n';

/** The console's page is not in the contract's route table: it guards itself with ROBOS.UPDATE. */
export default function MyRobotsPage() {
  const can = useCan();
  const me = useCurrentUser();
  if (me.isLoading) return <PageSkeleton />;
  if (!can('ROBOS.UPDATE')) return <AccessDenied />;
  return <MyRobots />;
}

function MyRobots() {
  const { t } = useTranslation('attended');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const answer = useQuery(myRobotsQueryOptions(debounced));
  const [running, setRunning] = useState<MyRobot | null>(null);
  const connectivity = { active: t('connectivity.active'), inactive: t('connectivity.inactive') };

  let body;
  if (answer.isPending) body = <PageSkeleton />;
  else if (answer.isError) {
    body = (
      <Alert color="red" variant="light">
        {t('page.loadError')}
      </Alert>
    );
  } else if (answer.data.agents.length === 0) {
    body = <NoAttendedAgent />;
  } else {
    const { agents, robots, truncated } = answer.data;
    body = (
      <Stack gap="lg">
        <section aria-labelledby="my-machines">
          <Title order={2} size="h4" id="my-machines" mb="sm">
            {t('page.agentsTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {agents.map((agent) => (
              <Card key={agent.rota_nodes_id} withBorder padding="sm" radius="md">
                <Group justify="space-between" wrap="nowrap">
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {agent.name}
                    </Text>
                    <Text size="sm" c="dimmed" truncate>
                      {agent.vm_name}
                    </Text>
                  </div>
                  <ConnectivityBadge value={agent.connectivity} labels={connectivity} />
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </section>
        <section aria-labelledby="my-robots">
          <Title order={2} size="h4" id="my-robots" mb="sm">
            {t('page.robotsTitle')}
          </Title>
          <Stack gap="sm">
            <TextInput
              aria-label={t('page.search')}
              placeholder={t('page.search')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              maw={360}
            />
            {truncated ? (
              <Alert color="blue" variant="light">
                {t('page.truncated', { count: MY_ROBOTS_LIMIT })}
              </Alert>
            ) : null}
            {robots.length === 0 ? (
              <Text c="dimmed">{debounced ? t('page.noRobots') : t('page.noRobotsAtAll')}</Text>
            ) : (
              <RobotsTable robots={robots} agents={agents} onRun={setRunning} />
            )}
          </Stack>
        </section>
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />
      {body}
      {running && answer.data ? (
        <AttendedRunDrawer
          opened
          onClose={() => setRunning(null)}
          robot={running}
          agents={answer.data.agents}
        />
      ) : null}
    </>
  );
}

function RobotsTable({
  robots,
  agents,
  onRun,
}: {
  robots: readonly MyRobot[];
  agents: readonly AttendedAgent[];
  onRun: (robot: MyRobot) => void;
}) {
  const { t } = useTranslation('attended');
  const names = new Map(agents.map((agent) => [agent.rota_nodes_id, agent.name]));
  // Rows that wrap rather than a table: on a phone the button drops under the robot, not off-screen.
  return (
    <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {robots.map((robot) => (
        <Group
          key={robot.rota_robots_id}
          component="li"
          justify="space-between"
          align="center"
          gap="sm"
          py="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <Stack gap={4} style={{ flex: '1 1 18rem', minWidth: 0 }}>
            <Text fw={600}>{robot.name}</Text>
            {robot.description ? (
              <Text size="sm" c="dimmed" lineClamp={2}>
                {robot.description}
              </Text>
            ) : null}
            {robot.required_labels.length > 0 ? (
              <LabelBadges labels={robot.required_labels} />
            ) : null}
            <Text size="sm" c={robot.agent_ids.length === 0 ? 'dimmed' : undefined}>
              {robot.agent_ids.length === 0
                ? t('page.noFittingAgent')
                : `${t('page.runsOn')}: ${robot.agent_ids.map((id) => names.get(id) ?? id).join(', ')}`}
            </Text>
          </Stack>
          <Button
            size="xs"
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            disabled={robot.agent_ids.length === 0}
            aria-label={t('page.runOf', { name: robot.name })}
            onClick={() => onRun(robot)}
          >
            {t('page.run')}
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

/** No attended agent yet: how to install one; the server is this console's own address. */
function NoAttendedAgent() {
  const { t } = useTranslation('attended');
  const server = window.location.origin;
  return (
    <Card withBorder radius="md" padding="lg" maw={760}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('empty.title')}
        </Title>
        <Text size="sm">{t('empty.text')}</Text>
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {`rota-agent install --attended --user ${t('empty.access')} --server ${server} --token-file ${t('empty.tokenFile')}`}
        </Code>
        <Text size="sm" c="dimmed">
          {t('empty.after')}
        </Text>
      </Stack>
    </Card>
  );
}
