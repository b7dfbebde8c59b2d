import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type TimeInput,
} from '@opentelemetry/api';

/**
 * Traces for an OpenTelemetry collector (OTLP over HTTP, JSON), on only when
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set. The SDK and the
 * exporter are imported only then: a server without a collector loads neither. The exporter
 * reads headers and timeout from the standard OTEL_EXPORTER_OTLP_* variables.
 */
export interface Telemetry {
  /** Sends what is buffered now (a test, a clean stop). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let enabled = false;

/** Whether spans are recorded: cheap to ask on every request. */
export const tracing = () => enabled;

export function telemetryConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The traces endpoint as the OTLP exporter's specification derives it from the two variables. */
function tracesUrl(env: NodeJS.ProcessEnv): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return `${env.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, '')}/v1/traces`;
}

/** Starts the SDK when a collector is configured; answers null (and loads nothing) when not. */
export async function startTelemetry(
  version: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Telemetry | null> {
  if (!telemetryConfigured(env)) return null;
  const [
    { TracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'rota-server',
      'service.version': version,
    }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(env) }) }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  enabled = true;
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      enabled = false;
      await provider.shutdown();
      trace.disable();
    },
  };
}

const tracer = () => trace.getTracer('rota-server');

/** A span begun now (or at `startTime`); null while tracing is off. */
export function beginSpan(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  startTime?: TimeInput,
): Span | null {
  if (!enabled) return null;
  return tracer().startSpan(name, { kind, attributes, startTime });
}

/** Ends a span, marked as an error when `failed`. */
export function endSpan(span: Span | null, attributes: Attributes = {}, failed = false) {
  if (!span) return;
  span.setAttributes(attributes);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

export { SpanKind };
