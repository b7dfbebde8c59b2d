/** What other features may use of business calendars (lint: no reaching into a feature's files). */
export { calendarKeys } from './api/keys';
export { CalendarSelect } from './components/calendar-select';
export { TimeZoneSelect, browserTimeZone } from './components/time-zone-select';
export { CALENDARS_PATH } from './paths';
