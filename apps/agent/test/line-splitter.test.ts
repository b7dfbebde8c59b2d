import { describe, expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_CHARS } from '../src/line-splitter.js';

describe('LineSplitter', () => {
  it('splits across chunks, strips \\r and keeps a last line without newline', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    splitter.push('one\r\ntw');
    splitter.push('o\n\nthr');
    splitter.push('ee');
    splitter.end();
    expect(lines).toEqual(['one', 'two', '', 'three']);
  });

  it('cuts long lines and skips their rest', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    splitter.push('x'.repeat(MAX_LINE_CHARS - 10));
    splitter.push('y'.repeat(50_000));
    splitter.push('z\nnext\n');
    expect(lines).toEqual([`${'x'.repeat(MAX_LINE_CHARS - 10)}${'y'.repeat(10)}`, 'next']);
  });
});
