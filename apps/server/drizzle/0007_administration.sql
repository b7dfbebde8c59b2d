CREATE TABLE "audit_logs" (
	"audit_logs_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_logs_audit_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rota_clients_id" integer,
	"users_id" integer,
	"user_name" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_environments" (
	"rota_environments_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_environments_rota_environments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"title" text NOT NULL,
	"db_url" text,
	"db_name" text,
	"db_user" text,
	"db_pass_sealed" text,
	"db_port" integer,
	"rota_token_sealed" text,
	"rota_api_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_status_items" (
	"rota_status_items_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_status_items_rota_status_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"status" text NOT NULL,
	"category" text NOT NULL,
	"label" text,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_robots" (
	"team_robots_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "team_robots_team_robots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"teams_id" integer NOT NULL,
	"rota_robots_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_users" (
	"team_users_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "team_users_team_users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"teams_id" integer NOT NULL,
	"users_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"teams_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "teams_teams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_environments" ADD CONSTRAINT "rota_environments_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_status_items" ADD CONSTRAINT "rota_status_items_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_robots" ADD CONSTRAINT "team_robots_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_robots" ADD CONSTRAINT "team_robots_teams_id_teams_teams_id_fk" FOREIGN KEY ("teams_id") REFERENCES "public"."teams"("teams_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_robots" ADD CONSTRAINT "team_robots_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_users" ADD CONSTRAINT "team_users_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_users" ADD CONSTRAINT "team_users_teams_id_teams_teams_id_fk" FOREIGN KEY ("teams_id") REFERENCES "public"."teams"("teams_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_users" ADD CONSTRAINT "team_users_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_client_created_idx" ON "audit_logs" USING btree ("rota_clients_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_logs_user_idx" ON "audit_logs" USING btree ("users_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "rota_environments_client_title_key" ON "rota_environments" USING btree ("rota_clients_id",lower("title"));--> statement-breakpoint
CREATE UNIQUE INDEX "rota_status_items_client_status_key" ON "rota_status_items" USING btree ("rota_clients_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "team_robots_team_robot_key" ON "team_robots" USING btree ("teams_id","rota_robots_id");--> statement-breakpoint
CREATE INDEX "team_robots_robot_idx" ON "team_robots" USING btree ("rota_robots_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_users_team_user_key" ON "team_users" USING btree ("teams_id","users_id");--> statement-breakpoint
CREATE INDEX "team_users_user_client_idx" ON "team_users" USING btree ("users_id","rota_clients_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_client_name_key" ON "teams" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE FUNCTION "audit_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_logs is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_logs_append_only" BEFORE UPDATE OR DELETE ON "audit_logs"
  FOR EACH ROW EXECUTE FUNCTION "audit_logs_append_only"();--> statement-breakpoint
INSERT INTO "rota_status_items" ("rota_clients_id", "status", "category", "color")
SELECT c."rota_clients_id", d."status", d."category", d."color"
FROM "rota_clients" c CROSS JOIN (VALUES
  ('queued', 'process', '#228be6'),
  ('processing', 'process', '#15aabf'),
  ('success', 'others', '#40c057'),
  ('cancelled', 'others', '#868e96'),
  ('business_error', 'failure', '#fab005'),
  ('application_error', 'failure', '#fa5252'),
  ('timeout', 'failure', '#fd7e14')
) AS d("status", "category", "color");
