import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian puts rsyslogd; absent, the tests that need it are skipped and say why. */
export const RSYSLOGD = ['/usr/sbin/rsyslogd', '/sbin/rsyslogd'].find((p) => existsSync(p));
const GTLS = '/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so';
export const RSYSLOG_GNUTLS = existsSync(GTLS);

/** A port nothing listens on: bound once, then let go. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface TestCa {
  dir: string;
  caPem: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A CA and a certificate for 127.0.0.1 and localhost it signed, made with openssl. */
export async function makeTestCa(): Promise<TestCa> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-ca-'));
  const f = (name: string) => path.join(dir, name);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Rota test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
  ]);
  await writeFile(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    f('server.key'),
    '-out',
    f('server.csr'),
  ]);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
    '-out',
    f('server.pem'),
  ]);
  return {
    dir,
    caPem: await readFile(f('ca.pem'), 'utf8'),
    caFile: f('ca.pem'),
    certFile: f('server.pem'),
    keyFile: f('server.key'),
  };
}

export interface Rsyslog {
  port: number;
  /** The raw messages received so far, one a line. */
  lines(): Promise<string[]>;
  /** Resolves once some received line passes `match` (woken by the file's changes). */
  waitFor(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Debian's rsyslogd in the foreground with its own configuration: imtcp on `port` (plain TCP,
 * or TLS with `tls`'s certificate), every message written raw, one a line, to a file.
 */
export async function startRsyslog(port: number, tls?: TestCa): Promise<Rsyslog> {
  if (!RSYSLOGD) throw new Error('rsyslogd is not installed');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-rsyslog-'));
  const out = path.join(dir, 'received.log');
  await writeFile(out, '');
  const conf = [
    `global(workDirectory="${dir}"${
      tls
        ? ` defaultNetstreamDriver="gtls" defaultNetstreamDriverCAFile="${tls.caFile}"` +
          ` defaultNetstreamDriverCertFile="${tls.certFile}" defaultNetstreamDriverKeyFile="${tls.keyFile}"`
        : ''
    })`,
    `module(load="imtcp"${tls ? ' streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon"' : ''})`,
    `input(type="imtcp" port="${port}" address="127.0.0.1")`,
    'template(name="raw" type="string" string="%rawmsg%\\n")',
    `action(type="omfile" file="${out}" template="raw" flushInterval="0" asyncWriting="off")`,
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'rsyslog.conf'), conf);
  const child: ChildProcess = spawn(
    RSYSLOGD,
    ['-n', '-f', path.join(dir, 'rsyslog.conf'), '-i', path.join(dir, 'rsyslogd.pid')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await listening(port, exited, () => stderr);
  const lines = async () => (await readFile(out, 'utf8')).split('\n').filter((line) => line !== '');
  return {
    port,
    lines,
    async waitFor(match, timeoutMs = 15_000) {
      const watcher = watch(dir);
      try {
        const found = new Promise<string>((resolve, reject) => {
          const check = () =>
            lines().then((all) => {
              const hit = all.find(match);
              if (hit !== undefined) resolve(hit);
            }, reject);
          watcher.on('change', check);
          check();
          setTimeout(() => {
            void lines().then((all) =>
              reject(new Error(`no matching message; received: ${JSON.stringify(all)}`)),
            );
          }, timeoutMs).unref();
        });
        return await found;
      } finally {
        watcher.close();
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the port accepts a connection, or rsyslogd exited (its stderr says why). */
async function listening(port: number, exited: Promise<void>, stderr: () => string) {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 200; i++) {
    if (gone) throw new Error(`rsyslogd exited: ${stderr()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`rsyslogd did not listen on ${port}: ${stderr()}`);
}
