import { Anchor, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { robotQueryOptions } from '../api/get-robot';
import { robotPath } from '../paths';

/**
 * A robot's name, linked to its page, for rows that carry only `rota_robots_id` (robot fields).
 * One cached `show` per robot, shared by every row of that robot.
 */
export function RobotName({ id }: { id: number }) {
  const robot = useQuery(robotQueryOptions(id));
  if (robot.isPending) return <Skeleton height={14} width={90} radius="sm" />;
  if (!robot.data) {
    return (
      <Text size="sm" c="dimmed">
        #{id}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={robotPath(id)} size="sm">
      {robot.data.name}
    </Anchor>
  );
}
