import { Anchor, Group, Progress, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard, DashboardQuery } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { ACTIVITY_PATH } from '../../activity';
import { useCan } from '../../auth';
import { robotPath } from '../../robots';
import { useDashboardTranslation } from '../i18n';
import { ListCard } from './list-card';

/** The robots with the most failed executions in the range, with their share of failures. */
export function FailingRobots({
  robots,
  range,
  loading,
}: {
  robots: Dashboard['failing_robots'] | undefined;
  range: DashboardQuery;
  loading: boolean;
}) {
  const t = useDashboardTranslation();
  const can = useCan();
  const format = useFormat();
  const canListRobots = can('ROBOS.LIST');
  const canListActivity = can('HISTORIC.LIST');

  return (
    <ListCard
      title={t('failing.title')}
      description={t('failing.description')}
      loading={loading}
      skeleton={{ rows: 3, height: 36 }}
      empty={!robots || robots.length === 0 ? t('failing.empty') : null}
    >
      <Stack component="ol" gap="md" m={0} p={0} style={{ listStyle: 'none' }}>
        {(robots ?? []).map((robot) => {
          const share = robot.executions > 0 ? (robot.failures / robot.executions) * 100 : 0;
          const params = new URLSearchParams({
            rota_robots_id: String(robot.rota_robots_id),
            startDate: range.startDate,
            endDate: range.endDate,
          });
          return (
            <li key={robot.rota_robots_id}>
              <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
                {canListRobots ? (
                  <Anchor
                    component={Link}
                    to={robotPath(robot.rota_robots_id)}
                    size="sm"
                    fw={600}
                    lineClamp={1}
                  >
                    {robot.rota_robots_name}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={600} lineClamp={1}>
                    {robot.rota_robots_name}
                  </Text>
                )}
                {canListActivity ? (
                  <Anchor
                    component={Link}
                    to={`${ACTIVITY_PATH}?${params.toString()}`}
                    size="xs"
                    c="red"
                    style={{ whiteSpace: 'nowrap' }}
                    aria-label={t('failing.viewActivity', { name: robot.rota_robots_name })}
                  >
                    {t('failing.ratio', {
                      failures: format.number(robot.failures),
                      executions: format.number(robot.executions),
                    })}
                  </Anchor>
                ) : (
                  <Text size="xs" c="red" style={{ whiteSpace: 'nowrap' }}>
                    {t('failing.ratio', {
                      failures: format.number(robot.failures),
                      executions: format.number(robot.executions),
                    })}
                  </Text>
                )}
              </Group>
              <Progress value={share} color="red" size="sm" radius="xl" aria-hidden />
            </li>
          );
        })}
      </Stack>
    </ListCard>
  );
}
