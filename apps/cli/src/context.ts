import type { Api } from './api.js';

/** What every command gets: the API, where to write, and the options it was given. */
export interface Context {
  api: Api;
  json: boolean;
  out(text: string): void;
  err(text: string): void;
  options: Options;
  /** Waits between polls; a test may shorten it with --interval. */
  sleep(ms: number): Promise<void>;
}

export interface Options {
  wait?: boolean;
  'task-data'?: string;
  timeout?: string;
  interval?: string;
  data?: string;
  label?: string;
  priority?: string;
  expires?: string;
  robot?: string;
  status?: string;
  version?: string;
  notes?: string;
  grace?: string;
  limit?: string;
}

/** Prints the API's JSON as it came, for jq. */
export function printJson(ctx: Context, value: unknown) {
  ctx.out(JSON.stringify(value, null, 2) + '\n');
}
