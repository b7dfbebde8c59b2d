import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { beginSpan, endSpan, SpanKind, tracing } from './telemetry.js';

const requestSpans = new WeakMap<FastifyRequest, Span>();

/**
 * One server span per HTTP request, named by its route's template (`POST /api/rota/…/create`,
 * never the ids in a URL), with the answer's status.
 */
export function registerRequestSpans(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (tracing()) {
      const span = beginSpan(request.method, SpanKind.SERVER, {
        'http.request.method': request.method,
      });
      if (span) requestSpans.set(request, span);
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = requestSpans.get(request);
    if (span) {
      const route = request.routeOptions.url;
      if (route) span.updateName(`${request.method} ${route}`);
      endSpan(
        span,
        {
          ...(route ? { 'http.route': route } : {}),
          'http.response.status_code': reply.statusCode,
        },
        reply.statusCode >= 500,
      );
    }
    done();
  });
}

/**
 * The runs this instance handed out, each with its span from claim to result. A run settled by
 * another instance (its agent moved) never ends here: the oldest are ended as unknown past a
 * bound, so memory stays flat.
 */
const MAX_OPEN_RUNS = 10_000;
const runSpans = new Map<string, Span>();
const runKey = (execution: number, attempt: number) => `${execution}:${attempt}`;

/** A claim that handed `runs` out: its own span, and a run span begun for each. */
export function claimed(
  agent: { rota_nodes_id: number; rota_clients_id: number },
  runs: readonly { execution_id: number; attempt: number; robot: { rota_robots_id: number } }[],
) {
  if (!tracing()) return;
  const claim = beginSpan('rota.claim', SpanKind.INTERNAL, {
    'rota.agent.id': agent.rota_nodes_id,
    'rota.client.id': agent.rota_clients_id,
    'rota.claim.runs': runs.length,
  });
  endSpan(claim);
  for (const run of runs) {
    const span = beginSpan('rota.run', SpanKind.INTERNAL, {
      'rota.execution.id': run.execution_id,
      'rota.execution.attempt': run.attempt,
      'rota.robot.id': run.robot.rota_robots_id,
      'rota.agent.id': agent.rota_nodes_id,
      'rota.client.id': agent.rota_clients_id,
    });
    if (!span) continue;
    runSpans.set(runKey(run.execution_id, run.attempt), span);
    if (runSpans.size > MAX_OPEN_RUNS) {
      const [oldest, open] = runSpans.entries().next().value!;
      runSpans.delete(oldest);
      endSpan(open, { 'rota.execution.status': 'unknown' });
    }
  }
}

/** An attempt's result: its run span ends with the status it got. */
export function settled(
  execution: { rota_executions_id: number; attempts: number },
  status: string,
) {
  const key = runKey(execution.rota_executions_id, execution.attempts);
  const span = runSpans.get(key);
  if (!span) return;
  runSpans.delete(key);
  endSpan(
    span,
    { 'rota.execution.status': status },
    status === 'application_error' || status === 'timeout',
  );
}
