export * from './constants.js';
export * from './messages.js';
export * from './permissions.js';
export * from './common.js';
export * from './auth.js';
export * from './profiles.js';
