/** What a session's User-Agent says, in the few words a person recognises. */
export type UserAgentSummary =
  | { kind: 'browser'; browser: string; os: string | null }
  | { kind: 'api' }
  | { kind: 'unknown'; raw: string | null };

/** Longest raw text shown for an agent nothing else recognises. */
export const RAW_USER_AGENT_MAX = 60;

// Scripts and HTTP libraries: a session used by a program rather than a person.
const API_CLIENTS =
  /^(curl|wget|python-requests|python-urllib|python-httpx|aiohttp|axios|node-fetch|node|undici|got|go-http-client|okhttp|java|apache-httpclient|postmanruntime|insomnia|httpie|powershell|rota-agent|rota)\b/i;

// Order matters: Edge and Opera also say Chrome; Chrome also says Safari.
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

// iOS and Android first: their agents also mention Mac OS X and Linux.
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** Reads a User-Agent header: a browser and its system, an API client, or what it was. */
export function summariseUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { kind: 'unknown', raw: null };
  if (API_CLIENTS.test(ua)) return { kind: 'api' };
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  if (!browser) {
    const raw = ua.length > RAW_USER_AGENT_MAX ? `${ua.slice(0, RAW_USER_AGENT_MAX - 1)}…` : ua;
    return { kind: 'unknown', raw };
  }
  const os = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { kind: 'browser', browser, os };
}
