/** Business calendars base, under the client's `/api`. */
export const CALENDAR_BASE = '/rota/calendar/api/v1';
