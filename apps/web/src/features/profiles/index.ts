/** What other features may use of profiles (lint: no reaching into a feature's files). */
export { profileKeys } from './api/keys';
export { profileOptionsQueryOptions } from './api/list-profiles';
export { ProfilesTab } from './components/profiles-tab';
