export { api, endSessionAfterUnauthorized, isLeavingAfterUnauthorized } from './api';
export { plainApi } from './plain-api';
export { ApiError, errorText, isApiError } from './api-error';
export type { ApiClient, CallOptions } from './create-client';
export type { DownloadedFile } from './request';
