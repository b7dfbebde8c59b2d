/** Teams bases, under the client's `/api`. */
export const TEAM_BASE = '/teams/api/v1';
export const TEAM_ROBOT_BASE = '/teams/robots/api/v1';
export const TEAM_USER_BASE = '/teams/users/api/v1';
/** The users area's picker call: `{data: [{users_id, name, last_name}]}`, at most 100. */
export const USER_NAME_PATH = '/user/api/v1/name';
