export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Plain lines on stderr, so stdout stays free and a service manager's journal keeps them as is. */
export function createStderrLogger(write: (line: string) => void = defaultWrite): Logger {
  const log = (level: string) => (message: string) =>
    write(`${new Date().toISOString()} ${level} ${message}\n`);
  return { info: log('INFO'), warn: log('WARN'), error: log('ERROR') };
}

function defaultWrite(line: string): void {
  process.stderr.write(line);
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
