/** What other features may use of status-items (lint: no reaching into a feature's files). */
export { useStatusPalette } from './hooks/use-status-palette';
