CREATE TABLE "rota_calendars" (
	"rota_calendars_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_calendars_rota_calendars_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"excluded_dates" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "rota_tasks_next_idx";--> statement-breakpoint
ALTER TABLE "rota_schedulings" ALTER COLUMN "next_run_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "task_sla_minutes" integer;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "task_risk_minutes" integer;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "task_retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "trigger_type" text DEFAULT 'interval' NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "cron" text;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "missed_runs" text DEFAULT 'run_once' NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "rota_calendars_id" integer;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "min_pending" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "max_concurrent" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD COLUMN "deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD COLUMN "postpone_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_calendars" ADD CONSTRAINT "rota_calendars_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_calendars_client_name_key" ON "rota_calendars" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_calendars_client_name_idx" ON "rota_calendars" USING btree ("rota_clients_id","name");--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD CONSTRAINT "rota_schedulings_rota_calendars_id_rota_calendars_rota_calendars_id_fk" FOREIGN KEY ("rota_calendars_id") REFERENCES "public"."rota_calendars"("rota_calendars_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rota_schedulings_calendar_idx" ON "rota_schedulings" USING btree ("rota_calendars_id");--> statement-breakpoint
CREATE INDEX "rota_schedulings_queue_idx" ON "rota_schedulings" USING btree ("rota_robots_id") WHERE "rota_schedulings"."trigger_type" = 'queue' and "rota_schedulings"."active" and "rota_schedulings"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rota_tasks_open_deadline_idx" ON "rota_tasks" USING btree ("rota_clients_id","deadline") WHERE "rota_tasks"."status" in ('pending', 'processing') and "rota_tasks"."deadline" is not null;--> statement-breakpoint
CREATE INDEX "rota_tasks_next_idx" ON "rota_tasks" USING btree ("rota_robots_id","status","priority" DESC NULLS LAST,"deadline","created_at");--> statement-breakpoint
-- Tasks that already ended: their last change is when they ended (SLA met/missed reads it).
UPDATE "rota_tasks" SET "finished_at" = "updated_at" WHERE "status" NOT IN ('pending', 'processing');
