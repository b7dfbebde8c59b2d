/** Console path of "My robots": the robots a person runs on their own machine. */
export const MY_ROBOTS_PATH = '/my-robots';
