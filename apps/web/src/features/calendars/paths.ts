/** The business calendars page, under Schedulings. */
export const CALENDARS_PATH = '/scheduling/calendar';
