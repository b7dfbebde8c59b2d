/** What other features may use of dashboard (lint: no reaching into a feature's files). */
export { dashboardKeys } from './api/keys';
export { CategoryCards } from './components/category-cards';
