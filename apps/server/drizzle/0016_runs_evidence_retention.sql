CREATE TABLE "rota_artifacts" (
	"rota_artifacts_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_artifacts_rota_artifacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_executions_id" integer NOT NULL,
	"name" text NOT NULL,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"blob_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "retention_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "audit_retention_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "stop_grace_seconds" integer;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "progress_percent" integer;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "progress_message" text;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "stalled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "stall_minutes" integer;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "stall_action" text DEFAULT 'flag' NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_artifacts" ADD CONSTRAINT "rota_artifacts_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_artifacts" ADD CONSTRAINT "rota_artifacts_rota_executions_id_rota_executions_rota_executions_id_fk" FOREIGN KEY ("rota_executions_id") REFERENCES "public"."rota_executions"("rota_executions_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_artifacts_execution_idx" ON "rota_artifacts" USING btree ("rota_executions_id","rota_artifacts_id");--> statement-breakpoint
CREATE INDEX "rota_executions_client_ended_idx" ON "rota_executions" USING btree ("rota_clients_id","ended_at") WHERE "rota_executions"."ended_at" is not null;