CREATE TABLE "rota_task_history" (
	"rota_task_history_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_task_history_rota_task_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_tasks_id" integer NOT NULL,
	"status" text NOT NULL,
	"rota_executions_id" integer,
	"attempts" integer NOT NULL,
	"business_error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "message_code" text;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "message_params" jsonb;--> statement-breakpoint
ALTER TABLE "rota_execution_logs" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "rota_execution_logs" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "message_code" text;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "message_params" jsonb;--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD COLUMN "retired_token_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "color_scheme" text;--> statement-breakpoint
ALTER TABLE "rota_task_history" ADD CONSTRAINT "rota_task_history_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_task_history" ADD CONSTRAINT "rota_task_history_rota_tasks_id_rota_tasks_rota_tasks_id_fk" FOREIGN KEY ("rota_tasks_id") REFERENCES "public"."rota_tasks"("rota_tasks_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_task_history" ADD CONSTRAINT "rota_task_history_rota_executions_id_rota_executions_rota_executions_id_fk" FOREIGN KEY ("rota_executions_id") REFERENCES "public"."rota_executions"("rota_executions_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_task_history_task_idx" ON "rota_task_history" USING btree ("rota_tasks_id","rota_task_history_id");--> statement-breakpoint
CREATE INDEX "rota_task_history_execution_idx" ON "rota_task_history" USING btree ("rota_executions_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_nodes_retired_token_hash_key" ON "rota_nodes" USING btree ("retired_token_hash") WHERE "rota_nodes"."retired_token_hash" is not null;--> statement-breakpoint
-- A task's history (issue 16): a row per status or holder change, written by the change itself.
CREATE FUNCTION rota_task_history_of_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rota_task_history
    (rota_clients_id, rota_tasks_id, status, rota_executions_id, attempts, business_error)
  VALUES (
    NEW.rota_clients_id,
    NEW.rota_tasks_id,
    NEW.status,
    CASE WHEN TG_OP = 'INSERT' THEN NEW.rota_executions_id
         ELSE COALESCE(NEW.rota_executions_id, OLD.rota_executions_id) END,
    NEW.attempts,
    NEW.business_error
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER rota_tasks_history_insert AFTER INSERT ON rota_tasks
  FOR EACH ROW EXECUTE FUNCTION rota_task_history_of_task();--> statement-breakpoint
CREATE TRIGGER rota_tasks_history_update AFTER UPDATE OF status, rota_executions_id ON rota_tasks
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
        OR OLD.rota_executions_id IS DISTINCT FROM NEW.rota_executions_id)
  EXECUTE FUNCTION rota_task_history_of_task();--> statement-breakpoint
-- Tasks that existed before: their present state as their first entry.
INSERT INTO rota_task_history
  (rota_clients_id, rota_tasks_id, status, rota_executions_id, attempts, business_error, at)
SELECT rota_clients_id, rota_tasks_id, status, rota_executions_id, attempts, business_error, updated_at
  FROM rota_tasks;
