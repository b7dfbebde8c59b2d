import { AGENT_PROTOCOL_BASE, type ClaimedRun } from '@rota/contract';
import { systemScope } from '../../lib/tenant-scope.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { ClaimedRow } from '../executions/row-statements.js';
import type { ParameterService } from '../parameters/service.js';
import type { EnginePublisher } from './live-events.js';

/** `count` fresh run tokens, by their hash (the database keeps only the hash). */
export function newRunTokens(count: number): Map<string, string> {
  const tokenByHash = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    const runToken = generateToken();
    tokenByHash.set(hashToken(runToken), runToken);
  }
  return tokenByHash;
}

/**
 * Claimed rows as the agent gets them: the robot, its package, and the environment the robot
 * starts with (shared parameters, its execution id, its attempt and its run token). Consoles
 * hear the runs are processing.
 */
export class RunHandout {
  constructor(
    private readonly parameters: ParameterService,
    private readonly publish: EnginePublisher,
    /** A first attempt was claimed after waiting this long in the queue (/metrics). */
    private readonly onClaimed: (waitedSeconds: number) => void = () => {},
  ) {}

  async handOut(
    clientId: number,
    rows: (ClaimedRow & { token_hash: string })[],
    tokenByHash: Map<string, string>,
  ): Promise<ClaimedRun[]> {
    if (rows.length === 0) return [];
    for (const row of rows) {
      // Retries keep their first queued_at: only first attempts measure the queue's wait.
      if (row.attempts === 1) this.onClaimed(Number(row.waited_seconds));
      this.publish.live(row.rota_clients_id, {
        type: 'execution',
        execution_id: row.rota_executions_id,
        rota_robots_id: row.rota_robots_id,
        status: 'processing',
      });
    }
    // A parameter saved a moment ago must reach the next run: the parameters service keeps
    // its cache right (dropped on every change, here and, through NOTIFY, on every instance).
    const parameters = await this.parameters.readForRun(systemScope(clientId));
    const shared = Object.fromEntries(
      parameters.filter((p) => !p.secret).map((p) => [`ROTA_PARAM_${p.name}`, p.value]),
    );
    return rows
      .map((row) => claimedRun(row, tokenByHash.get(row.token_hash)!, shared))
      .sort((x, y) => x.execution_id - y.execution_id);
  }
}

function claimedRun(
  row: ClaimedRow,
  runToken: string,
  parameters: Record<string, string>,
): ClaimedRun {
  const environment: Record<string, string> = {
    ...parameters,
    ROTA_EXECUTION_ID: String(row.rota_executions_id),
    // The fencing number: the robot API refuses the calls of an attempt no longer current.
    ROTA_ATTEMPT: String(row.attempts),
    ROTA_EXECUTION_TOKEN: runToken,
  };
  return {
    execution_id: row.rota_executions_id,
    attempt: row.attempts,
    timeout_minutes: Math.ceil(row.timeout_seconds / 60),
    timeout_seconds: row.timeout_seconds,
    robot: {
      rota_robots_id: row.rota_robots_id,
      name: row.robot_name,
      executor: row.executor,
      remote_root: row.remote_root,
    },
    package:
      row.rota_robot_versions_id && row.sha256
        ? {
            rota_robot_versions_id: row.rota_robot_versions_id,
            version: row.version!,
            sha256: row.sha256,
            size_bytes: Number(row.size_bytes),
            format: row.format!,
            download_path: `${AGENT_PROTOCOL_BASE}/package/${row.sha256}`,
            signature:
              row.signature && row.signer_key
                ? { signature: row.signature, public_key: row.signer_key }
                : null,
          }
        : null,
    environment,
  };
}
