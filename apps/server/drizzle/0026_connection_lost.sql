DROP INDEX "users_oidc_subject_key";--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD COLUMN "connection_lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "connection_lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "oidc_subject";