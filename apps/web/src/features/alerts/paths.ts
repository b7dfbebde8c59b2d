/** The alert rules page, under Configuration. */
export const ALERTS_PATH = '/alert';
