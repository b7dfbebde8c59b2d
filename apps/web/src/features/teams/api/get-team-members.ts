import { queryOptions } from '@tanstack/react-query';
import type { ListResponse, TeamRobot, TeamUser } from '@rota/contract';
import { api } from '../../../lib/http';
import { teamKeys } from './keys';
import { TEAM_ROBOT_BASE, TEAM_USER_BASE } from './paths';

/** A member as the pickers show it: its id and its name. */
export type MemberChoice = { id: number; label: string };
export type TeamMembers = { robots: MemberChoice[]; users: MemberChoice[] };

const PAGE = 100;

/** Every page of one team's links (`index` gives at most 100 at a time). */
async function allPages<T>(base: string, teamId: number): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.post<ListResponse<T>>(`${base}/index`, {
      teams_id: teamId,
      page,
      per_page: PAGE,
    });
    rows.push(...answer.data);
    if (answer.data.length < PAGE || rows.length >= answer.meta.total) return rows;
  }
}

/** POST teams/robots and teams/users `index` by `teams_id`: who and what is in the team. */
export async function fetchTeamMembers(teamId: number): Promise<TeamMembers> {
  const [robots, users] = await Promise.all([
    allPages<TeamRobot>(TEAM_ROBOT_BASE, teamId),
    allPages<TeamUser>(TEAM_USER_BASE, teamId),
  ]);
  return {
    robots: robots.map((r) => ({ id: r.rota_robots_id, label: r.rota_robots_name })),
    users: users.map((u) => ({ id: u.users_id, label: `${u.name} ${u.last_name}`.trim() })),
  };
}

export function teamMembersQueryOptions(teamId: number) {
  return queryOptions({
    queryKey: teamKeys.members(teamId),
    queryFn: () => fetchTeamMembers(teamId),
  });
}
