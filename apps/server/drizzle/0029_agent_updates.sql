ALTER TABLE "rota_nodes" ADD COLUMN "update_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "auto_update_agents" boolean DEFAULT false NOT NULL;