#!/usr/bin/env node
import { AGENT_UPDATED_EXIT_CODE } from '@rota/contract';
import { Agent } from './agent.js';
import { createStderrLogger, errorMessage } from './logger.js';
import { parseOptions, USAGE } from './options.js';
import { UnauthorizedError } from './protocol-client.js';
import { RUN_COMMAND, runRobotCommand } from './run-command.js';
import { runServiceCommand, SERVICE_COMMANDS, type ServiceCommand } from './service/cli.js';
import { runSupervisor, SUPERVISE_COMMAND } from './supervisor.js';
import { isPackaged } from './update/packaged.js';
import { SelfUpdater } from './update/self-update.js';
import { agentVersion } from './version.js';

/**
 * Exit codes: 0 stopped cleanly, 1 unexpected failure, 2 bad options, 3 token refused, 75 the
 * executable was replaced (updated or rolled back): the service manager starts it again.
 */
async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if ((SERVICE_COMMANDS as readonly string[]).includes(command ?? '')) {
    return runServiceCommand(command as ServiceCommand, rest);
  }
  if (command === RUN_COMMAND) {
    return runRobotCommand(rest, {
      env: process.env,
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  }
  const parsed = parseOptions(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`${agentVersion()}\n`);
    return 0;
  }
  if (parsed.kind === 'invalid') {
    process.stderr.write(
      `rota-agent: invalid options:\n${parsed.problems.map((p) => `  - ${p}\n`).join('')}\n${USAGE}`,
    );
    return 2;
  }
  const { options } = parsed;
  const logger = createStderrLogger();
  logger.info(
    `rota-agent ${agentVersion()}: server ${options.servers.join(', ')}, work dir ${options.workDir}, concurrency ${options.concurrency}, ${options.mode} mode`,
  );
  // Only a packaged executable can replace itself; from source, update offers are ignored.
  const updater = isPackaged()
    ? new SelfUpdater({ exe: process.execPath, version: agentVersion(), logger })
    : undefined;
  if (updater && (await updater.onStart()) === 'rolled-back') return AGENT_UPDATED_EXIT_CODE;
  const agent = new Agent({ ...options, logger, ...(updater ? { updater } : {}) });

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      logger.info(`${signal} received; send it again to quit at once`);
      agent.stop();
      return;
    }
    logger.warn(`${signal} received again: killing running robots and quitting now`);
    agent.killAllNow();
    process.exit(1);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  try {
    await agent.run();
    if (agent.updated) {
      logger.info(`stopped to start the updated executable (exit ${AGENT_UPDATED_EXIT_CODE})`);
      return AGENT_UPDATED_EXIT_CODE;
    }
    logger.info('stopped');
    return 0;
  } catch (error) {
    if (error instanceof UnauthorizedError) return 3;
    logger.error(`agent failed: ${errorMessage(error)}`);
    return 1;
  }
}

/** process.exit, since keep-alive sockets would hold the process; but only once output is out. */
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

if (process.argv[2] === SUPERVISE_COMMAND) {
  // A packaged agent started as a run's supervisor (supervisor.ts): it lives until its run ends.
  runSupervisor(process.argv[3] ?? '{}');
} else {
  main().then(exit, (error: unknown) => {
    process.stderr.write(`rota-agent: ${errorMessage(error)}\n`);
    exit(1);
  });
}
