CREATE TABLE "rota_log_stream_outbox" (
	"rota_log_stream_outbox_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_log_stream_outbox_rota_log_stream_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rota_log_streams_id" integer NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"event_uid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_log_streams" (
	"rota_log_streams_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_log_streams_rota_log_streams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"transport" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"events" text[] NOT NULL,
	"ca_certificate" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_log_stream_outbox" ADD CONSTRAINT "rota_log_stream_outbox_rota_log_streams_id_rota_log_streams_rota_log_streams_id_fk" FOREIGN KEY ("rota_log_streams_id") REFERENCES "public"."rota_log_streams"("rota_log_streams_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_log_stream_outbox" ADD CONSTRAINT "rota_log_stream_outbox_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_log_streams" ADD CONSTRAINT "rota_log_streams_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_log_stream_outbox_due_idx" ON "rota_log_stream_outbox" USING btree ("rota_log_streams_id","next_attempt_at") WHERE "rota_log_stream_outbox"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "rota_log_streams_client_name_key" ON "rota_log_streams" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
-- Log-stream events are written by the change they report, in its transaction, one row per
-- active stream that carries the kind: an audit record of the stream's client (already
-- redacted by the audit service), a run starting (processing) and a run ending (a final status).
-- A NOTIFY wakes the worker so a message leaves at once rather than at its next pass.
CREATE FUNCTION rota_log_stream_event(client integer, topic text, event_kind text, payload jsonb, at timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  added integer;
BEGIN
  INSERT INTO rota_log_stream_outbox (rota_log_streams_id, rota_clients_id, kind, data, occurred_at)
  SELECT s.rota_log_streams_id, s.rota_clients_id, event_kind, payload, at
    FROM rota_log_streams s
   WHERE s.rota_clients_id = client AND s.active AND topic = ANY (s.events);
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    PERFORM pg_notify('rota_log_stream', '{}');
  END IF;
END $$;--> statement-breakpoint
CREATE FUNCTION rota_log_stream_of_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rota_log_stream_event(NEW.rota_clients_id, 'audit', 'audit', jsonb_build_object(
    'audit_logs_id', NEW.audit_logs_id,
    'action', NEW.action,
    'entity', NEW.entity,
    'entity_id', NEW.entity_id,
    'users_id', NEW.users_id,
    'user_name', NEW.user_name,
    'api_key_name', NEW.api_key_name,
    'ip', NEW.ip,
    'request_id', NEW.request_id,
    'before', NEW.before,
    'after', NEW.after
  ), NEW.created_at);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER audit_logs_log_stream AFTER INSERT ON audit_logs
  FOR EACH ROW WHEN (NEW.rota_clients_id IS NOT NULL)
  EXECUTE FUNCTION rota_log_stream_of_audit();--> statement-breakpoint
CREATE FUNCTION rota_log_stream_of_execution() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rota_log_stream_event(NEW.rota_clients_id, 'execution',
    CASE WHEN NEW.status = 'processing' THEN 'execution.started' ELSE 'execution.finished' END,
    jsonb_build_object(
      'execution_id', NEW.rota_executions_id,
      'status', NEW.status,
      'rota_robots_id', NEW.rota_robots_id,
      'rota_nodes_id', NEW.rota_nodes_id,
      'rota_schedulings_id', NEW.rota_schedulings_id,
      'attempts', NEW.attempts,
      'exit_code', NEW.exit_code
    ), now());
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER rota_executions_log_stream AFTER UPDATE OF status ON rota_executions
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
        AND NEW.status IN ('processing', 'success', 'business_error', 'application_error', 'timeout', 'cancelled'))
  EXECUTE FUNCTION rota_log_stream_of_execution();
