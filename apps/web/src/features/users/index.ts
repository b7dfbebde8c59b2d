/** What other features may use of users (lint: no reaching into a feature's files). */
export { userKeys } from './api/keys';
export { selectClient } from './api/select-client';
export { updatePassword } from './api/update-password';
export { useUploadAvatar } from './api/upload-avatar';
