/**
 * Navigation for code that lives outside React (the HTTP client, the cross-tab listener).
 * The app plugs the data router in at start; until then, and in tests that do not plug
 * anything, a full page load is the safe fallback.
 */
type Navigate = (path: string) => void;

let navigateImpl: Navigate = (path) => window.location.assign(path);
let reloadImpl: () => void = () => window.location.reload();

export function setNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string): void {
  navigateImpl(path);
}

/** Swappable because jsdom cannot reload and its `location` cannot be spied on. */
export function setReloader(reload: () => void): void {
  reloadImpl = reload;
}

export function reloadPage(): void {
  reloadImpl();
}
