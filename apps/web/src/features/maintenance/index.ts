/** What other features may use of maintenance (lint: no reaching into a feature's files). */
export { MaintenanceBanner } from './components/maintenance-banner';
export { MaintenanceButton } from './components/maintenance-button';
export { MaintenanceDrawer } from './components/maintenance-drawer';
export { MaintenanceHost } from './components/maintenance-host';
