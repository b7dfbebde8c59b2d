import { describe, expect, it } from 'vitest';
import { RAW_USER_AGENT_MAX, summariseUserAgent } from './user-agent';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

describe('summariseUserAgent', () => {
  it.each([
    [CHROME_LINUX, 'Chrome', 'Linux'],
    [FIREFOX_WINDOWS, 'Firefox', 'Windows'],
    [EDGE_WINDOWS, 'Edge', 'Windows'],
    [SAFARI_MAC, 'Safari', 'macOS'],
    [SAFARI_IPHONE, 'Safari', 'iOS'],
    [CHROME_ANDROID, 'Chrome', 'Android'],
    [HEADLESS, 'Chrome', 'Linux'],
  ])('reads %s', (ua, browser, os) => {
    expect(summariseUserAgent(ua)).toEqual({ kind: 'browser', browser, os });
  });

  it('calls scripts and HTTP libraries an API client', () => {
    for (const ua of ['curl/8.5.0', 'python-requests/2.32.3', 'axios/1.7.9', 'Go-http-client/1.1'])
      expect(summariseUserAgent(ua)).toEqual({ kind: 'api' });
  });

  it('keeps an unknown agent as it is, cut to a readable length', () => {
    expect(summariseUserAgent('Lynx/2.9.0')).toEqual({ kind: 'unknown', raw: 'Lynx/2.9.0' });
    const long = `SomeAgent ${'x'.repeat(200)}`;
    const summary = summariseUserAgent(long);
    expect(summary.kind).toBe('unknown');
    const raw = summary.kind === 'unknown' ? (summary.raw ?? '') : '';
    expect(raw).toHaveLength(RAW_USER_AGENT_MAX);
    expect(raw.endsWith('…')).toBe(true);
  });

  it('has nothing to say without an agent', () => {
    expect(summariseUserAgent(null)).toEqual({ kind: 'unknown', raw: null });
    expect(summariseUserAgent('  ')).toEqual({ kind: 'unknown', raw: null });
  });
});
