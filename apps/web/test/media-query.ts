import { vi } from 'vitest';

/** `window.matchMedia` for jsdom, which has none: `matches` says which queries hold. */
export function matchMediaStub(matches: (query: string) => boolean) {
  return vi.fn((query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}
