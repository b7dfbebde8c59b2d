ALTER TABLE "rota_nodes" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD COLUMN "hello_labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_executions" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "required_labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;