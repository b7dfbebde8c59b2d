import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { matchMediaStub } from './media-query';

class ResizeObserverStub {
  private readonly callback: ResizeObserverCallback;
  constructor(callback: ResizeObserverCallback) {
    this.callback = callback;
  }
  observe(target: Element) {
    const contentRect = { width: 800, height: 600, top: 0, left: 0, bottom: 600, right: 800 };
    this.callback(
      [{ target, contentRect } as unknown as ResizeObserverEntry],
      this as unknown as ResizeObserver,
    );
  }
  unobserve() {}
  disconnect() {}
}

// The first render of a route imports its lazy chunks (Mantine, the shell, the page), which
// takes seconds on a busy 2-core machine; findBy*/waitFor wait for it instead of failing at 1 s.
configure({ asyncUtilTimeout: 4000 });

// Node-environment tests (the bundle-size check) have no DOM to patch.
if (typeof window !== 'undefined') {
  // jsdom 29 lacks what Mantine relies on (STACK-NOTES "Mantine under jsdom").
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: matchMediaStub(() => false),
  });
  window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
  HTMLElement.prototype.scrollIntoView = () => {};
  // Textarea autosize listens to font loading; jsdom has no FontFaceSet.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: {
        addEventListener: () => {},
        removeEventListener: () => {},
        ready: Promise.resolve(),
      },
    });
  }

  afterEach(() => {
    cleanup();
  });
}
