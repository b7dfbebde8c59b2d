import type { AgentLogBatch } from '@rota/contract';
import { describe, expect, it } from 'vitest';
import { LogShipper } from '../src/log-shipper.js';
import { silentLogger } from '../src/logger.js';
import { ProtocolGaveUpError, ProtocolRejectedError } from '../src/protocol-client.js';

const ref = { execution_id: 5, attempt: 2 };

function recorder(answer: (batch: AgentLogBatch) => Promise<{ cancel: boolean }>) {
  const batches: AgentLogBatch[] = [];
  return {
    batches,
    send: async (batch: AgentLogBatch) => {
      const result = await answer(batch);
      batches.push(batch);
      return result;
    },
  };
}

describe('LogShipper', () => {
  it('numbers lines from 1 and sends them in batches', async () => {
    const { batches, send } = recorder(async () => ({ cancel: false }));
    const shipper = new LogShipper({
      ref,
      send,
      onCancel: () => {},
      signal: new AbortController().signal,
      logger: silentLogger,
      flushMs: 20,
      maxBatch: 2,
    });
    shipper.start();
    shipper.push('stdout', 'a');
    shipper.push('stderr', 'b');
    shipper.push('system', 'c'.repeat(9_000));
    await shipper.drain();
    expect(batches.map((b) => b.lines.map((l) => l.seq))).toEqual([[1, 2], [3]]);
    expect(batches[0]).toMatchObject({ execution_id: 5, attempt: 2 });
    expect(batches[1]?.lines[0]?.line).toHaveLength(8_000);
    expect(batches[0]?.lines.map((l) => l.stream)).toEqual(['stdout', 'stderr']);
  });

  it('sends an empty batch when idle and passes a cancel on', async () => {
    let cancelled = 0;
    let answered!: () => void;
    const cancelPassedOn = new Promise<void>((resolve) => (answered = resolve));
    const { batches, send } = recorder(async () => ({ cancel: true }));
    const shipper = new LogShipper({
      ref,
      send,
      onCancel: () => {
        cancelled += 1;
        answered();
      },
      signal: new AbortController().signal,
      logger: silentLogger,
      flushMs: 10,
      idleFlushMs: 50,
    });
    shipper.start();
    // No line is ever pushed: only the idle flush can send, and its answer carries the cancel.
    await cancelPassedOn;
    await shipper.drain();
    expect(batches.length).toBeGreaterThan(0);
    expect(batches[0]?.lines).toEqual([]);
    expect(cancelled).toBe(batches.length);
  });

  it('keeps at most maxPending lines while the server is away, saying how many were dropped', async () => {
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let inFlight!: () => void;
    const firstSent = new Promise<void>((resolve) => (inFlight = resolve));
    let first = true;
    const { batches, send } = recorder(async () => {
      if (first) {
        first = false;
        inFlight();
        await blocked;
      }
      return { cancel: false };
    });
    const shipper = new LogShipper({
      ref,
      send,
      onCancel: () => {},
      signal: new AbortController().signal,
      logger: silentLogger,
      flushMs: 10,
      maxPending: 100,
    });
    shipper.start();
    shipper.push('stdout', 'line 1');
    await firstSent; // line 1 is now in flight
    for (let i = 2; i <= 1000; i += 1) shipper.push('stdout', `line ${i}`);
    release();
    await shipper.drain();

    const lines = batches.flatMap((b) => b.lines);
    expect(lines.length).toBeLessThanOrEqual(101);
    const seqs = lines.map((l) => l.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(lines[0]?.line).toBe('line 1');
    expect(lines.at(-1)?.line).toBe('line 1000');
    const notice = lines.find((l) => l.stream === 'system');
    const dropped = Number(/^(\d+) log lines? dropped/.exec(notice?.line ?? '')?.[1]);
    // Every line is either delivered or counted in the notice.
    expect(dropped + lines.length - 1).toBe(1000);
  });

  it('drops a batch the server refuses and goes on', async () => {
    const { batches, send } = recorder(async (batch) => {
      if (batch.lines[0]?.seq === 1) throw new ProtocolRejectedError('logs', 409, 'superseded');
      return { cancel: false };
    });
    const shipper = new LogShipper({
      ref,
      send,
      onCancel: () => {},
      signal: new AbortController().signal,
      logger: silentLogger,
      flushMs: 10,
      maxBatch: 1,
    });
    shipper.start();
    shipper.push('stdout', 'one');
    shipper.push('stdout', 'two');
    await shipper.drain();
    // The run's log says what was lost, once.
    expect(batches.map((b) => b.lines[0]?.line)).toEqual([
      'two',
      '1 log line dropped: the server refused them (logs: the server answered 409 (superseded))',
    ]);
  });

  it('gives up a batch the server keeps failing on, and never announces a refused notice', async () => {
    // Every batch is refused; each one tried is kept to look at.
    const batches: AgentLogBatch[] = [];
    const send = async (batch: AgentLogBatch): Promise<{ cancel: boolean }> => {
      batches.push(batch);
      throw new ProtocolGaveUpError('logs', 'the server answered 500');
    };
    const shipper = new LogShipper({
      ref,
      send,
      onCancel: () => {},
      signal: new AbortController().signal,
      logger: silentLogger,
      flushMs: 10,
    });
    shipper.start();
    shipper.push('stdout', 'bad\u0000line');
    await shipper.drain();
    // The line, then its notice; the notice refused too ends it: no loop.
    expect(batches.map((b) => b.lines.map((l) => l.stream))).toEqual([['stdout'], ['system']]);
  });

  it('stops trying when its signal ends delivery', async () => {
    const controller = new AbortController();
    const tried: { lines: string[]; signal: AbortSignal }[] = [];
    const warnings: string[] = [];
    const shipper = new LogShipper({
      ref,
      // A server that never answers: only the signal ends the call.
      send: (batch, signal) => {
        tried.push({ lines: batch.lines.map((l) => l.line), signal });
        // The agent quits while this batch is in flight.
        controller.abort();
        return new Promise((_resolve, reject) => {
          if (signal.aborted) reject(new Error('aborted'));
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
      onCancel: () => {},
      signal: controller.signal,
      logger: { ...silentLogger, warn: (message: string) => warnings.push(message) },
      flushMs: 10,
    });
    shipper.start();
    shipper.push('stdout', 'never delivered');
    await shipper.drain();
    // The one call in flight was given the signal and ended by it; nothing was retried.
    expect(tried).toEqual([{ lines: ['never delivered'], signal: controller.signal }]);
    expect(tried[0]?.signal.aborted).toBe(true);
    // Quitting is not a refusal: no "not delivered" warning, no notice queued for later.
    expect(warnings).toEqual([]);
    // A line pushed after the end is not sent either, even when asked to drain again.
    shipper.push('stdout', 'after the end');
    await shipper.drain();
    expect(tried).toHaveLength(1);
  });
});
