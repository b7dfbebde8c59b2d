CREATE TABLE "rota_nodes" (
	"rota_nodes_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_nodes_rota_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"rota_vms_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"last_seen_at" timestamp with time zone,
	"version" text,
	"hostname" text,
	"os" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_parameters" (
	"rota_parameters_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_parameters_rota_parameters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"value" text,
	"password_sealed" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_robot_fields" (
	"rota_robot_fields_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_robot_fields_rota_robot_fields_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_robot_versions" (
	"rota_robot_versions_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_robot_versions_rota_robot_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"version" text NOT NULL,
	"notes" text,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_robots" (
	"rota_robots_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_robots_rota_robots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"executor" text NOT NULL,
	"remote_root" text,
	"active" boolean DEFAULT true NOT NULL,
	"rota_robot_versions_id_current" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_scheduling_vms" (
	"rota_scheduling_vms_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_scheduling_vms_rota_scheduling_vms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_schedulings_id" integer NOT NULL,
	"rota_vms_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_schedulings" (
	"rota_schedulings_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_schedulings_rota_schedulings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"interval_minutes" integer NOT NULL,
	"timeout_minutes" integer NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 50 NOT NULL,
	"sleep" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_tasks" (
	"rota_tasks_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_tasks_rota_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"label" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"priority" integer DEFAULT 50 NOT NULL,
	"expiration_date" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"business_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_vms" (
	"rota_vms_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_vms_rota_vms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"hostname" text NOT NULL,
	"label" text,
	"os" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD CONSTRAINT "rota_nodes_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_nodes" ADD CONSTRAINT "rota_nodes_rota_vms_id_rota_vms_rota_vms_id_fk" FOREIGN KEY ("rota_vms_id") REFERENCES "public"."rota_vms"("rota_vms_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_parameters" ADD CONSTRAINT "rota_parameters_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_fields" ADD CONSTRAINT "rota_robot_fields_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_fields" ADD CONSTRAINT "rota_robot_fields_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_created_by_users_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD CONSTRAINT "rota_robots_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD CONSTRAINT "rota_robots_rota_robot_versions_id_current_rota_robot_versions_rota_robot_versions_id_fk" FOREIGN KEY ("rota_robot_versions_id_current") REFERENCES "public"."rota_robot_versions"("rota_robot_versions_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_scheduling_vms" ADD CONSTRAINT "rota_scheduling_vms_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_scheduling_vms" ADD CONSTRAINT "rota_scheduling_vms_rota_schedulings_id_rota_schedulings_rota_schedulings_id_fk" FOREIGN KEY ("rota_schedulings_id") REFERENCES "public"."rota_schedulings"("rota_schedulings_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_scheduling_vms" ADD CONSTRAINT "rota_scheduling_vms_rota_vms_id_rota_vms_rota_vms_id_fk" FOREIGN KEY ("rota_vms_id") REFERENCES "public"."rota_vms"("rota_vms_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD CONSTRAINT "rota_schedulings_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_schedulings" ADD CONSTRAINT "rota_schedulings_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD CONSTRAINT "rota_tasks_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_tasks" ADD CONSTRAINT "rota_tasks_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_vms" ADD CONSTRAINT "rota_vms_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_nodes_client_name_key" ON "rota_nodes" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rota_nodes_token_hash_key" ON "rota_nodes" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "rota_nodes_vm_idx" ON "rota_nodes" USING btree ("rota_vms_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_parameters_client_name_key" ON "rota_parameters" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rota_robot_fields_robot_name_key" ON "rota_robot_fields" USING btree ("rota_robots_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_robot_fields_client_idx" ON "rota_robot_fields" USING btree ("rota_clients_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_robot_versions_robot_version_key" ON "rota_robot_versions" USING btree ("rota_robots_id",lower("version"));--> statement-breakpoint
CREATE INDEX "rota_robot_versions_sha256_idx" ON "rota_robot_versions" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_robots_client_name_key" ON "rota_robots" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_robots_client_created_idx" ON "rota_robots" USING btree ("rota_clients_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_scheduling_vms_key" ON "rota_scheduling_vms" USING btree ("rota_schedulings_id","rota_vms_id");--> statement-breakpoint
CREATE INDEX "rota_scheduling_vms_vm_idx" ON "rota_scheduling_vms" USING btree ("rota_vms_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_schedulings_client_name_key" ON "rota_schedulings" USING btree ("rota_clients_id",lower("name")) WHERE "rota_schedulings"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rota_schedulings_robot_idx" ON "rota_schedulings" USING btree ("rota_robots_id");--> statement-breakpoint
CREATE INDEX "rota_tasks_client_created_idx" ON "rota_tasks" USING btree ("rota_clients_id","created_at");--> statement-breakpoint
CREATE INDEX "rota_tasks_client_status_idx" ON "rota_tasks" USING btree ("rota_clients_id","status","created_at");--> statement-breakpoint
CREATE INDEX "rota_tasks_next_idx" ON "rota_tasks" USING btree ("rota_robots_id","status","priority" DESC NULLS LAST,"created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_vms_client_name_key" ON "rota_vms" USING btree ("rota_clients_id",lower("name"));