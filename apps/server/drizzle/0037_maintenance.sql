CREATE TABLE "rota_maintenance_skips" (
	"rota_maintenance_skips_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_maintenance_skips_rota_maintenance_skips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rota_maintenance_windows_id" integer NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"rota_schedulings_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"skipped_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_maintenance_windows" (
	"rota_maintenance_windows_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_maintenance_windows_rota_maintenance_windows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"rota_clients_id" integer,
	"rota_vms_id" integer,
	"mode" text NOT NULL,
	"message" text NOT NULL,
	"started_by_users_id" integer,
	"started_by_name" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_by_users_id" integer,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "rota_maintenance_skips" ADD CONSTRAINT "rota_maintenance_skips_rota_maintenance_windows_id_rota_maintenance_windows_rota_maintenance_windows_id_fk" FOREIGN KEY ("rota_maintenance_windows_id") REFERENCES "public"."rota_maintenance_windows"("rota_maintenance_windows_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_skips" ADD CONSTRAINT "rota_maintenance_skips_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_skips" ADD CONSTRAINT "rota_maintenance_skips_rota_schedulings_id_rota_schedulings_rota_schedulings_id_fk" FOREIGN KEY ("rota_schedulings_id") REFERENCES "public"."rota_schedulings"("rota_schedulings_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_windows" ADD CONSTRAINT "rota_maintenance_windows_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_windows" ADD CONSTRAINT "rota_maintenance_windows_rota_vms_id_rota_vms_rota_vms_id_fk" FOREIGN KEY ("rota_vms_id") REFERENCES "public"."rota_vms"("rota_vms_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_windows" ADD CONSTRAINT "rota_maintenance_windows_started_by_users_id_users_users_id_fk" FOREIGN KEY ("started_by_users_id") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_maintenance_windows" ADD CONSTRAINT "rota_maintenance_windows_ended_by_users_id_users_users_id_fk" FOREIGN KEY ("ended_by_users_id") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_maintenance_skips_window_scheduling_key" ON "rota_maintenance_skips" USING btree ("rota_maintenance_windows_id","rota_schedulings_id");--> statement-breakpoint
CREATE INDEX "rota_maintenance_skips_client_scheduling_idx" ON "rota_maintenance_skips" USING btree ("rota_clients_id","rota_schedulings_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_maintenance_windows_active_key" ON "rota_maintenance_windows" USING btree (coalesce("rota_vms_id", 0)) WHERE "rota_maintenance_windows"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "rota_maintenance_windows_client_idx" ON "rota_maintenance_windows" USING btree ("rota_clients_id");