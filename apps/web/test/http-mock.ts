import { vi } from 'vitest';
import type { MaintenanceWindow, OidcPublicConfig } from '@rota/contract';

export type MockCall = {
  url: string;
  method: string;
  headers: Headers;
  /** The JSON body, parsed. */
  body: unknown;
  /** A multipart body, as sent. */
  form: FormData | undefined;
};
export type MockReply = {
  status: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (a file download), with `headers`. */
  raw?: BodyInit;
  headers?: Record<string, string>;
};
type Handler = (call: MockCall) => MockReply | Promise<MockReply>;

/**
 * The sign-in page asks the server whether single sign-on is on. Answered here, and
 * not recorded, so tests about other calls need not know: off, unless a test passes its own.
 */
const OIDC_CONFIG_URL = '/api/user/api/auth/v1/oidc/config';
const OIDC_OFF: OidcPublicConfig = { enabled: false, label: null, local_login: true };
export type MockOptions = {
  oidcConfig?: OidcPublicConfig;
  /** The shell's maintenance banner asks on every page: none active unless a test says so. */
  maintenance?: MaintenanceWindow[];
};

const MAINTENANCE_SHOW = '/api/rota/maintenance/api/v1/show';

/**
 * Stubs `fetch` with a function of the request; every call is recorded, so tests can assert
 * what was (and what was not) sent to the server.
 */
export function mockFetch(handler: Handler, options: MockOptions = {}) {
  const calls: MockCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: MockCall = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      form: init.body instanceof FormData ? init.body : undefined,
    };
    let reply: MockReply;
    if (call.url === OIDC_CONFIG_URL) {
      reply = { status: 200, body: options.oidcConfig ?? OIDC_OFF };
    } else if (call.url.endsWith(MAINTENANCE_SHOW)) {
      reply = { status: 200, body: { data: options.maintenance ?? [] } };
    } else {
      calls.push(call);
      reply = await handler(call);
    }
    if (reply.raw !== undefined) {
      return new Response(reply.raw, { status: reply.status, headers: reply.headers ?? {} });
    }
    const empty = reply.status === 204 || reply.body === undefined;
    return new Response(empty ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: empty ? {} : { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A fetch that fails the test loudly if anything calls the API. */
export function forbidFetch() {
  return mockFetch((call) => {
    throw new Error(`unexpected API call: ${call.method} ${call.url}`);
  });
}

/** An `index` answer: `{data, meta}` for one page. */
export function page<T>(
  data: T[],
  meta: { total?: number; current_page?: number; per_page?: number } = {},
) {
  return {
    data,
    meta: {
      total: meta.total ?? data.length,
      current_page: meta.current_page ?? 1,
      per_page: meta.per_page ?? 20,
    },
  };
}
