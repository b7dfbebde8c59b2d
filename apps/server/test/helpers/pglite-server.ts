import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';

/** The SSLRequest code: a client asking for TLS first is told "no" with one byte. */
const SSL_REQUEST = 80877103;

/**
 * A real PostgreSQL (PGlite, in this process) on a loopback port, for tests of what connects
 * over the network: the embedded leg of the suite needs no PostgreSQL of the machine. PGlite
 * takes the wire protocol as it comes; this only cuts the byte stream into whole messages. It
 * accepts any user and database (it has one of each), and one client at a time.
 */
export async function startPgliteServer() {
  const db = await PGlite.create();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let started = false;
    let queue = Promise.resolve();
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        // The startup message has no type byte; every later one has.
        const header = started ? 5 : 4;
        if (buffer.length < header) return;
        const length = started ? 1 + buffer.readInt32BE(1) : buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (!started && message.length === 8 && message.readInt32BE(4) === SSL_REQUEST) {
          socket.write('N');
          continue;
        }
        started = true;
        queue = queue.then(async () => {
          const answer = await db.execProtocolRaw(new Uint8Array(message));
          if (answer.length > 0 && !socket.destroyed) socket.write(answer);
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
