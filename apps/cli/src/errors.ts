/** Exit codes a script can test; `rota --help` and the README list the same ones. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI explains in one line and answers with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usage = (message: string) => new CliError(message, EXIT.usage);
