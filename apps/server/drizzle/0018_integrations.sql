CREATE TABLE "alert_reads" (
	"users_id" integer NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"seen_event_id" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "alert_reads_users_id_rota_clients_id_pk" PRIMARY KEY("users_id","rota_clients_id")
);
--> statement-breakpoint
CREATE TABLE "rota_alert_deliveries" (
	"rota_alert_deliveries_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_alert_deliveries_rota_alert_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_uid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"rota_alerts_id" integer NOT NULL,
	"rota_alert_events_id" bigint,
	"event_type" text NOT NULL,
	"rota_robots_id" integer,
	"count" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"first_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_alert_events" (
	"rota_alert_events_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_alert_events_rota_alert_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_uid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"type" text NOT NULL,
	"rota_robots_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fanned_out" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_alerts" (
	"rota_alerts_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_alerts_rota_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"events" text[] NOT NULL,
	"robot_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"channel_type" text NOT NULL,
	"channel" jsonb NOT NULL,
	"channel_secret" text,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_trigger_fires" (
	"rota_triggers_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rota_trigger_fires_rota_triggers_id_idempotency_key_pk" PRIMARY KEY("rota_triggers_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "rota_triggers" (
	"rota_triggers_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_triggers_rota_triggers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_fired_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_api_keys" (
	"user_api_keys_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_api_keys_user_api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"users_id" integer NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_hint" text NOT NULL,
	"permissions" text[],
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "api_key_name" text;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_alert_deliveries" ADD CONSTRAINT "rota_alert_deliveries_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_alert_deliveries" ADD CONSTRAINT "rota_alert_deliveries_rota_alerts_id_rota_alerts_rota_alerts_id_fk" FOREIGN KEY ("rota_alerts_id") REFERENCES "public"."rota_alerts"("rota_alerts_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_alert_deliveries" ADD CONSTRAINT "rota_alert_deliveries_rota_alert_events_id_rota_alert_events_rota_alert_events_id_fk" FOREIGN KEY ("rota_alert_events_id") REFERENCES "public"."rota_alert_events"("rota_alert_events_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_alert_events" ADD CONSTRAINT "rota_alert_events_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_alerts" ADD CONSTRAINT "rota_alerts_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_trigger_fires" ADD CONSTRAINT "rota_trigger_fires_rota_triggers_id_rota_triggers_rota_triggers_id_fk" FOREIGN KEY ("rota_triggers_id") REFERENCES "public"."rota_triggers"("rota_triggers_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_triggers" ADD CONSTRAINT "rota_triggers_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_triggers" ADD CONSTRAINT "rota_triggers_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_triggers" ADD CONSTRAINT "rota_triggers_created_by_users_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_api_keys" ADD CONSTRAINT "user_api_keys_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_api_keys" ADD CONSTRAINT "user_api_keys_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_alert_deliveries_due_idx" ON "rota_alert_deliveries" USING btree ("next_attempt_at") WHERE "rota_alert_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "rota_alert_deliveries_alert_idx" ON "rota_alert_deliveries" USING btree ("rota_alerts_id","rota_alert_deliveries_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rota_alert_deliveries_group_idx" ON "rota_alert_deliveries" USING btree ("rota_alerts_id","event_type","rota_robots_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rota_alert_events_pending_idx" ON "rota_alert_events" USING btree ("rota_alert_events_id") WHERE not "rota_alert_events"."fanned_out";--> statement-breakpoint
CREATE INDEX "rota_alert_events_client_idx" ON "rota_alert_events" USING btree ("rota_clients_id","rota_alert_events_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rota_alert_events_occurred_idx" ON "rota_alert_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_alerts_client_name_key" ON "rota_alerts" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_trigger_fires_created_idx" ON "rota_trigger_fires" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_triggers_token_hash_key" ON "rota_triggers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_triggers_robot_name_key" ON "rota_triggers" USING btree ("rota_robots_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_triggers_client_idx" ON "rota_triggers" USING btree ("rota_clients_id","rota_robots_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_api_keys_key_hash_key" ON "user_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "user_api_keys_user_idx" ON "user_api_keys" USING btree ("users_id","rota_clients_id");--> statement-breakpoint
CREATE INDEX "user_api_keys_client_idx" ON "user_api_keys" USING btree ("rota_clients_id");--> statement-breakpoint
-- Alert events are written by the change they report, in its transaction (issue 15): a final
-- error or timeout of an execution, a run turning stalled, an agent going quiet or coming back,
-- a task's SLA announced at risk or breached. The WHEN clauses keep every other update free.
CREATE FUNCTION rota_alert_event_of_execution() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rota_alert_events (rota_clients_id, type, rota_robots_id, data)
  VALUES (
    NEW.rota_clients_id,
    CASE WHEN TG_ARGV[0] = 'stalled' THEN 'execution.stalled' ELSE 'execution.' || NEW.status END,
    NEW.rota_robots_id,
    jsonb_build_object(
      'execution_id', NEW.rota_executions_id,
      'status', NEW.status,
      'message', NEW.message,
      'exit_code', NEW.exit_code,
      'attempts', NEW.attempts,
      'rota_nodes_id', NEW.rota_nodes_id,
      'rota_schedulings_id', NEW.rota_schedulings_id
    )
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER rota_executions_alert_final AFTER UPDATE OF status ON rota_executions
  FOR EACH ROW
  WHEN (NEW.status IN ('application_error', 'business_error', 'timeout')
        AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION rota_alert_event_of_execution('final');--> statement-breakpoint
CREATE TRIGGER rota_executions_alert_stalled AFTER UPDATE OF stalled ON rota_executions
  FOR EACH ROW
  WHEN (NEW.stalled AND NOT OLD.stalled AND NEW.status = 'processing')
  EXECUTE FUNCTION rota_alert_event_of_execution('stalled');--> statement-breakpoint
-- Lost: the reaper's quiet-agent sweep (it leaves last_seen_at alone; a clean sign-off moves it).
-- Back: heard from again after having been seen before (a first contact is not "back").
CREATE FUNCTION rota_alert_event_of_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rota_alert_events (rota_clients_id, type, rota_robots_id, data)
  VALUES (
    NEW.rota_clients_id,
    CASE WHEN NEW.online THEN 'agent.back' ELSE 'agent.lost' END,
    NULL,
    jsonb_build_object(
      'rota_nodes_id', NEW.rota_nodes_id,
      'name', NEW.name,
      'rota_vms_id', NEW.rota_vms_id,
      'last_seen_at', OLD.last_seen_at
    )
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER rota_nodes_alert_connectivity AFTER UPDATE OF online ON rota_nodes
  FOR EACH ROW
  WHEN (OLD.online IS DISTINCT FROM NEW.online
        AND ((NOT NEW.online AND NEW.last_seen_at IS NOT DISTINCT FROM OLD.last_seen_at)
             OR (NEW.online AND OLD.last_seen_at IS NOT NULL)))
  EXECUTE FUNCTION rota_alert_event_of_agent();--> statement-breakpoint
CREATE FUNCTION rota_alert_event_of_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rota_alert_events (rota_clients_id, type, rota_robots_id, data)
  VALUES (
    NEW.rota_clients_id,
    'task.' || NEW.sla_announced,
    NEW.rota_robots_id,
    jsonb_build_object(
      'rota_tasks_id', NEW.rota_tasks_id,
      'label', NEW.label,
      'deadline', NEW.deadline,
      'status', NEW.status
    )
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER rota_tasks_alert_sla AFTER UPDATE OF sla_announced ON rota_tasks
  FOR EACH ROW
  WHEN (NEW.sla_announced IN ('at_risk', 'breached')
        AND OLD.sla_announced IS DISTINCT FROM NEW.sla_announced)
  EXECUTE FUNCTION rota_alert_event_of_task();
