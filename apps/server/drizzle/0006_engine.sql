CREATE TABLE "engine_state" (
	"key" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_execution_attempts" (
	"rota_execution_attempts_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_execution_attempts_rota_execution_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_executions_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"rota_nodes_id" integer,
	"rota_vms_id" integer,
	"status" text DEFAULT 'processing' NOT NULL,
	"exit_code" integer,
	"message" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rota_execution_logs" (
	"rota_execution_logs_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_execution_logs_rota_execution_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_executions_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"seq" integer NOT NULL,
	"stream" text NOT NULL,
	"line" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_executions" (
	"rota_executions_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_executions_rota_executions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"rota_schedulings_id" integer,
	"vm_ids" integer[],
	"rota_vms_id" integer,
	"rota_nodes_id" integer,
	"rota_robot_versions_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"trigger" text NOT NULL,
	"priority" integer NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"sleep_seconds" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"exit_code" integer,
	"message" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"lease_expires_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"run_token_hash" text,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD COLUMN "online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "next_run_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD COLUMN "rota_executions_id" integer;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD CONSTRAINT "rota_execution_attempts_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD CONSTRAINT "rota_execution_attempts_rota_executions_id_rota_executions_rota_executions_id_fk" FOREIGN KEY ("rota_executions_id") REFERENCES "public"."rota_executions"("rota_executions_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD CONSTRAINT "rota_execution_attempts_rota_nodes_id_rota_nodes_rota_nodes_id_fk" FOREIGN KEY ("rota_nodes_id") REFERENCES "public"."rota_nodes"("rota_nodes_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD CONSTRAINT "rota_execution_attempts_rota_vms_id_rota_vms_rota_vms_id_fk" FOREIGN KEY ("rota_vms_id") REFERENCES "public"."rota_vms"("rota_vms_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_execution_logs" ADD CONSTRAINT "rota_execution_logs_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_execution_logs" ADD CONSTRAINT "rota_execution_logs_rota_executions_id_rota_executions_rota_executions_id_fk" FOREIGN KEY ("rota_executions_id") REFERENCES "public"."rota_executions"("rota_executions_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_schedulings_id_rota_schedulings_rota_schedulings_id_fk" FOREIGN KEY ("rota_schedulings_id") REFERENCES "public"."rota_schedulings"("rota_schedulings_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_vms_id_rota_vms_rota_vms_id_fk" FOREIGN KEY ("rota_vms_id") REFERENCES "public"."rota_vms"("rota_vms_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_nodes_id_rota_nodes_rota_nodes_id_fk" FOREIGN KEY ("rota_nodes_id") REFERENCES "public"."rota_nodes"("rota_nodes_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_rota_robot_versions_id_rota_robot_versions_rota_robot_versions_id_fk" FOREIGN KEY ("rota_robot_versions_id") REFERENCES "public"."rota_robot_versions"("rota_robot_versions_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD CONSTRAINT "rota_executions_created_by_users_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_execution_attempts_key" ON "rota_execution_attempts" USING btree ("rota_executions_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_execution_logs_key" ON "rota_execution_logs" USING btree ("rota_executions_id","attempt","seq");--> statement-breakpoint
CREATE INDEX "rota_execution_logs_tail_idx" ON "rota_execution_logs" USING btree ("rota_executions_id","rota_execution_logs_id");--> statement-breakpoint
CREATE INDEX "rota_executions_claim_idx" ON "rota_executions" USING btree ("rota_clients_id","priority" DESC NULLS LAST,"queued_at","rota_executions_id") WHERE "rota_executions"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "rota_executions_lease_idx" ON "rota_executions" USING btree ("lease_expires_at") WHERE "rota_executions"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "rota_executions_client_queued_idx" ON "rota_executions" USING btree ("rota_clients_id","queued_at");--> statement-breakpoint
CREATE INDEX "rota_executions_robot_queued_idx" ON "rota_executions" USING btree ("rota_robots_id","queued_at");--> statement-breakpoint
CREATE INDEX "rota_executions_node_idx" ON "rota_executions" USING btree ("rota_nodes_id") WHERE "rota_executions"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "rota_executions_scheduling_idx" ON "rota_executions" USING btree ("rota_schedulings_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_executions_run_token_key" ON "rota_executions" USING btree ("run_token_hash");--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD CONSTRAINT "rota_tasks_rota_executions_id_rota_executions_rota_executions_id_fk" FOREIGN KEY ("rota_executions_id") REFERENCES "public"."rota_executions"("rota_executions_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_schedulings_due_idx" ON "rota_schedulings" USING btree ("next_run_at") WHERE "rota_schedulings"."active" and "rota_schedulings"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rota_tasks_execution_idx" ON "rota_tasks" USING btree ("rota_executions_id");--> statement-breakpoint
CREATE INDEX "rota_tasks_pending_expiry_idx" ON "rota_tasks" USING btree ("expiration_date") WHERE "rota_tasks"."status" = 'pending';