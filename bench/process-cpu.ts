/**
 * CPU time of processes read from /proc (Linux), for bench/scale.ts: the PostgreSQL backends that
 * serve one database plus the server's shared helpers, and any child process by pid.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`, 100 on Linux x86 and arm). */
const TICKS_PER_SECOND = 100;

/** utime + stime of one process in ms, or null once it has gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

// A client backend's title: "postgres: [15/main: ]<user> <database> <host>(<port>) <state>".
const CLIENT_BACKEND = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/;

/**
 * CPU in ms of every `postgres` process that works for `database`, by pid: its client backends,
 * and the shared ones (postmaster, checkpointer, WAL writer, background writer, autovacuum…) that
 * every database's writes cost. Backends of other databases are left out: other people's tests
 * share the server.
 */
function postgresProcessesCpuMs(database: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    let title: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'postgres') continue;
      title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue; // gone meanwhile
    }
    const client = CLIENT_BACKEND.exec(title);
    if (client && client[1] !== database) continue;
    if (/autovacuum worker/.test(title) && !title.includes(database)) continue;
    const ms = processCpuMs(Number(entry));
    if (ms !== null) found.set(Number(entry), ms);
  }
  return found;
}

/**
 * PostgreSQL's CPU for one database from now on, backend by backend: what each spent since the
 * meter started (all of it for a backend that started since). A backend that exits meanwhile (a
 * pool closing an idle connection) keeps what it had spent when last seen: `sample()` often
 * (every 250 ms, say) where connections come and go. Summing all processes at the start and at
 * the end instead loses an exiting backend's whole life, and read negative in the agents fleet.
 */
export class PostgresCpuMeter {
  private readonly start: Map<number, number>;
  private readonly last: Map<number, number>;

  constructor(private readonly database: string) {
    this.start = postgresProcessesCpuMs(database);
    this.last = new Map(this.start);
  }

  sample(): void {
    for (const [pid, ms] of postgresProcessesCpuMs(this.database)) this.last.set(pid, ms);
  }

  /** CPU ms spent since the meter started (samples once more first). */
  elapsedMs(): number {
    this.sample();
    let total = 0;
    for (const [pid, ms] of this.last) total += ms - (this.start.get(pid) ?? 0);
    return total;
  }
}

/** "1-min 5-min 15-min" load average. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
