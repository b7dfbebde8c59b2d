import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../src/features/live/sse-parser';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const parser = createSseParser(
    (message) => messages.push(message),
    (text) => comments.push(text),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { messages, comments, parser };
}

describe('SSE parser', () => {
  it('dispatches an event at the blank line, with its name and data', () => {
    const { messages } = parse(['event: execution\ndata: {"a":1}\n\n']);
    expect(messages).toEqual([{ event: 'execution', data: '{"a":1}', id: undefined }]);
  });

  it('joins chunks split in the middle of a line, a field name or a line end', () => {
    const { messages } = parse(['ev', 'ent: log\nda', 'ta: {"execution_id"', ':7}\r', '\n\r\n']);
    expect(messages).toEqual([{ event: 'log', data: '{"execution_id":7}', id: undefined }]);
  });

  it('reads one character at a time', () => {
    const text = 'event: agent\r\ndata: x\r\n\r\nevent: log\ndata: y\n\n';
    const { messages } = parse([...text]);
    expect(messages.map((m) => [m.event, m.data])).toEqual([
      ['agent', 'x'],
      ['log', 'y'],
    ]);
  });

  it('takes a lone CR as a line end', () => {
    const { messages } = parse(['data: a\rdata: b\r\r']);
    expect(messages).toEqual([{ event: 'message', data: 'a\nb', id: undefined }]);
  });

  it('joins multi-line data with newlines and keeps inner spaces', () => {
    const { messages } = parse(['data: first\ndata:second\ndata:  third\n\n']);
    expect(messages[0]?.data).toBe('first\nsecond\n third');
  });

  it('passes keep-alive comments aside without dispatching anything', () => {
    const { messages, comments } = parse([':\n\n', ': ping\n\n', 'data: x\n:mid\n\n']);
    expect(comments).toEqual(['', ' ping', 'mid']);
    expect(messages).toEqual([{ event: 'message', data: 'x', id: undefined }]);
  });

  it('ignores a blank line with no data, unknown fields, and a field without a colon', () => {
    const { messages } = parse(['event: lonely\n\n', 'foo: bar\ndata\n\n']);
    // `data` alone is a data line with an empty value.
    expect(messages).toEqual([{ event: 'message', data: '', id: undefined }]);
  });

  it('remembers the last id and the retry delay, and strips a leading BOM', () => {
    const { messages, parser } = parse(['\uFEFFid: 7\nretry: 2500\ndata: a\n\n', 'data: b\n\n']);
    expect(messages.map((m) => m.id)).toEqual(['7', '7']);
    expect(parser.lastEventId).toBe('7');
    expect(parser.retry).toBe(2500);
  });

  it('drops an event cut off by the end of the stream', () => {
    const { messages } = parse(['data: complete\n\n', 'data: cut']);
    expect(messages.map((m) => m.data)).toEqual(['complete']);
  });
});
