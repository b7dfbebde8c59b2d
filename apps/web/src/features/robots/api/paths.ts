/** Robot bases, under the client's `/api`. */
export const ROBOT_BASE = '/rota/robot/api/v1';
export const ROBOT_VERSION_BASE = '/rota/robot/version/api/v1';
export const ROBOT_FIELD_BASE = '/rota/robot/field/api/v1';
