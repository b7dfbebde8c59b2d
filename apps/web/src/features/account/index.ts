/** What other features may use of "My account" (lint: no reaching into a feature's files). */
export { useApplyAccountPreferences, useSavePreferences } from './components/preferences-sync';
export { useAccountTranslation } from './i18n';
export { ACCOUNT_PATH } from './paths';
