ALTER TABLE "rota_execution_attempts" ADD COLUMN "run_token_hash" text;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "ended_by" text;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "late_status" text;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "late_exit_code" integer;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "late_message" text;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "late_reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_execution_attempts" ADD COLUMN "refused_calls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_execution_attempts_run_token_key" ON "rota_execution_attempts" USING btree ("run_token_hash");
