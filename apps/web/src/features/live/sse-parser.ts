/** One Server-Sent Event: its `event:` name (`message` when none), its `data:` lines joined. */
export type SseMessage = { event: string; data: string; id: string | undefined };

export type SseParser = {
  /** Feeds decoded text in whatever pieces the network delivers; whole events are dispatched. */
  push(chunk: string): void;
  /** The last `id:` seen, for `Last-Event-ID` when reconnecting. */
  readonly lastEventId: string | undefined;
  /** The reconnection delay the server asked for (`retry:`), in milliseconds. */
  readonly retry: number | undefined;
};

/**
 * The event-stream format (WHATWG HTML §9.2.6) over text that arrives in arbitrary chunks: lines
 * end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next are
 * one line end); `:` lines are comments (keep-alives); `data:` lines accumulate; a blank line
 * dispatches. An event cut off by the end of the stream is dropped, as the format says.
 */
export function createSseParser(
  onMessage: (message: SseMessage) => void,
  onComment?: (text: string) => void,
): SseParser {
  let buffer = '';
  let started = false;
  let pendingCr = false;
  let eventName = '';
  let data = '';
  let hasData = false;
  let lastEventId: string | undefined;
  let retry: number | undefined;

  function dispatch() {
    if (hasData) {
      onMessage({
        event: eventName || 'message',
        data: data.endsWith('\n') ? data.slice(0, -1) : data,
        id: lastEventId,
      });
    }
    eventName = '';
    data = '';
    hasData = false;
  }

  function line(text: string) {
    if (text === '') {
      dispatch();
      return;
    }
    if (text.startsWith(':')) {
      onComment?.(text.slice(1));
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventName = value;
        break;
      case 'data':
        data += `${value}\n`;
        hasData = true;
        break;
      case 'id':
        if (!value.includes('\u0000')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
      // Unknown fields are ignored.
    }
  }

  return {
    push(chunk: string) {
      let text = chunk;
      if (!started && text.length > 0) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      // What is left in the buffer holds no line end: scan only what just came.
      const scanFrom = buffer.length;
      buffer += text;
      let start = 0;
      for (let i = scanFrom; i < buffer.length; i += 1) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i += 1;
          } else {
            pendingCr = true;
          }
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
  };
}
