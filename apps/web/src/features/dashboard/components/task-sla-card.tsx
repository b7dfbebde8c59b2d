import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useCan } from '../../auth';
import { robotPath } from '../../robots';
import { useDashboardTranslation } from '../i18n';
import { ListCard } from './list-card';

/** "Tasks at risk / breached": per robot, its unfinished tasks near or past their deadline now. */
export function TaskSlaCard({
  robots,
  loading,
}: {
  robots: Dashboard['task_sla'] | undefined;
  loading: boolean;
}) {
  const t = useDashboardTranslation();
  const can = useCan();
  const format = useFormat();
  const canListTasks = can('ATIVIDADES.LIST');

  return (
    <ListCard
      title={t('taskSla.title')}
      description={t('taskSla.description')}
      loading={loading}
      skeleton={{ rows: 2, height: 28 }}
      empty={!robots || robots.length === 0 ? t('taskSla.empty') : null}
    >
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
        {(robots ?? []).map((robot) => (
          <li key={robot.rota_robots_id}>
            <Group justify="space-between" gap="xs" wrap="wrap">
              {canListTasks ? (
                <Anchor
                  component={Link}
                  to={robotPath(robot.rota_robots_id, 'tasks')}
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
              <Group gap={6} wrap="nowrap">
                {robot.at_risk > 0 ? (
                  <Badge variant="light" color="yellow" radius="sm" tt="none">
                    {t('taskSla.atRisk', {
                      count: robot.at_risk,
                      formatted: format.number(robot.at_risk),
                    })}
                  </Badge>
                ) : null}
                {robot.breached > 0 ? (
                  <Badge variant="light" color="red" radius="sm" tt="none">
                    {t('taskSla.breached', {
                      count: robot.breached,
                      formatted: format.number(robot.breached),
                    })}
                  </Badge>
                ) : null}
              </Group>
            </Group>
          </li>
        ))}
      </Stack>
    </ListCard>
  );
}
