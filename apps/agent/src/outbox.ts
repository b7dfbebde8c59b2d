import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { agentFinishSchema, type AgentFinish, type AgentRunRef } from '@rota/contract';
import { errorMessage, type Logger } from './logger.js';

const FILE_NAME = /^(\d+)-(\d+)\.json$/;

/**
 * Results written to disk before they are sent, and removed once the server has answered, so a
 * result survives both an unreachable server and a restart of the agent.
 */
export class Outbox {
  constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  fileOf(ref: AgentRunRef): string {
    return path.join(this.dir, `${ref.execution_id}-${ref.attempt}.json`);
  }

  /** Write to a temp file, flush it to disk, then rename: a crash never leaves half a result. */
  async write(result: AgentFinish): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = this.fileOf(result);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(result)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  }

  async remove(ref: AgentRunRef): Promise<void> {
    await rm(this.fileOf(ref), { force: true });
  }

  /** Results left by an earlier process; unreadable files are set aside, not retried forever. */
  async readAll(): Promise<AgentFinish[]> {
    await mkdir(this.dir, { recursive: true });
    const results: AgentFinish[] = [];
    for (const name of (await readdir(this.dir)).sort()) {
      const file = path.join(this.dir, name);
      if (name.endsWith('.tmp')) {
        // A write that never reached its rename: its run was not reported by that process either,
        // and the server will time its lease out.
        await rm(file, { force: true });
        continue;
      }
      const match = FILE_NAME.exec(name);
      if (!match) continue;
      try {
        const result = agentFinishSchema.parse(JSON.parse(await readFile(file, 'utf8')));
        if (`${result.execution_id}-${result.attempt}` !== `${match[1]}-${match[2]}`) {
          throw new Error('its content is for another run');
        }
        results.push(result);
      } catch (error) {
        this.logger.error(`outbox: ${name} is unreadable (${errorMessage(error)}); set aside`);
        await rename(file, `${file}.invalid`).catch(() => undefined);
      }
    }
    return results;
  }
}
