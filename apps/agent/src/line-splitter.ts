/** Longer lines are cut here (the protocol stores at most this much of a line). */
export const MAX_LINE_CHARS = 8_000;

/**
 * Turns a stream of text chunks into lines: splits on `\n`, drops a trailing `\r`, and cuts long
 * lines without holding more than MAX_LINE_CHARS of one in memory.
 */
export class LineSplitter {
  private partial = '';
  /** The current line was already cut: ignore the rest of it until its `\n`. */
  private skipping = false;

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      const piece = newline === -1 ? chunk.slice(start) : chunk.slice(start, newline);
      if (!this.skipping) {
        this.partial += piece;
        if (this.partial.length > MAX_LINE_CHARS) {
          this.emit(this.partial.slice(0, MAX_LINE_CHARS));
          this.partial = '';
          this.skipping = true;
        }
      }
      if (newline === -1) return;
      if (this.skipping) this.skipping = false;
      else this.emit(this.partial);
      this.partial = '';
      start = newline + 1;
    }
  }

  /** The last line when the stream ended without a newline. */
  end(): void {
    if (!this.skipping && this.partial.length > 0) this.emit(this.partial);
    this.partial = '';
    this.skipping = false;
  }

  private emit(line: string): void {
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
}
