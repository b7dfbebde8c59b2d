import createClient from 'openapi-fetch';
// The server's generated OpenAPI types: every call below is checked against its route.
import type { paths } from '../../server/test/generated/api.js';
import { CliError, EXIT, type ExitCode } from './errors.js';
import type { Target } from './config.js';

export type Api = ReturnType<typeof createClient<paths>>;

export function openApi(target: Target): Api {
  return createClient<paths>({
    baseUrl: target.url.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${target.apiKey}`, 'accept-language': language() },
  });
}

/** pt when the shell speaks Portuguese, as the server's field errors then come in it. */
function language(): string {
  const locale = process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '';
  return locale.toLowerCase().startsWith('pt') ? 'pt' : 'en';
}

interface ErrorBody {
  code?: string;
  message?: string;
  errors?: { field: string; message: string }[];
}

/** The answer's data, or a CliError whose exit code says what kind of refusal it was. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof pending>;
  try {
    result = await pending;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new CliError(
      `Cannot reach the server: ${cause ?? (error as Error).message}`,
      EXIT.failed,
    );
  }
  if (result.response.ok) return result.data as T;
  throw refusal(result.response.status, result.error as ErrorBody | string | undefined);
}

function refusal(status: number, body: ErrorBody | string | undefined): CliError {
  const parsed = typeof body === 'object' && body !== null ? body : {};
  const fields = (parsed.errors ?? []).map((e) => `\n  ${e.field}: ${e.message}`).join('');
  const message = `${parsed.message ?? `HTTP ${status}`}${parsed.code ? ` (${parsed.code})` : ''}`;
  return new CliError(`${message}${fields}`, exitFor(status));
}

function exitFor(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  // The server refused what was sent: the caller's input, as a usage error is.
  if (status === 400) return EXIT.usage;
  return EXIT.failed;
}

const PAGE_SIZE = 100;

/** Up to `limit` rows of a paged list, page after page, as a script means all it asked for. */
export async function collect<T>(
  limit: number,
  fetchPage: (page: number, perPage: number) => Promise<{ data: T[]; meta: { total: number } }>,
): Promise<T[]> {
  const perPage = Math.min(limit, PAGE_SIZE);
  const rows: T[] = [];
  for (let page = 1; rows.length < limit; page += 1) {
    const answer = await fetchPage(page, perPage);
    rows.push(...answer.data);
    if (answer.data.length < perPage || rows.length >= answer.meta.total) break;
  }
  return rows.slice(0, limit);
}
