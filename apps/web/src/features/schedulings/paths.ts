/** The schedulings page. */
export const SCHEDULINGS_PATH = '/scheduling';
