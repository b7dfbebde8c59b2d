/**
 * In-memory BroadcastChannel: instances with the same name stand for different tabs. Like the
 * real one, a channel does not receive its own messages.
 */
export class FakeBroadcastChannel {
  static instances: FakeBroadcastChannel[] = [];
  readonly name: string;
  readonly posted: unknown[] = [];
  private closed = false;
  private readonly listeners = new Set<(event: MessageEvent) => void>();

  constructor(name: string) {
    this.name = name;
    FakeBroadcastChannel.instances.push(this);
  }

  postMessage(data: unknown) {
    this.posted.push(data);
    for (const other of FakeBroadcastChannel.instances) {
      if (other === this || other.closed || other.name !== this.name) continue;
      for (const listener of other.listeners) listener(new MessageEvent('message', { data }));
    }
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    if (type === 'message') this.listeners.delete(listener);
  }

  close() {
    this.closed = true;
  }

  /** Messages this channel has heard from the others. */
  static received(channel: FakeBroadcastChannel): unknown[] {
    const heard: unknown[] = [];
    channel.addEventListener('message', (event) => heard.push(event.data));
    return heard;
  }
}
