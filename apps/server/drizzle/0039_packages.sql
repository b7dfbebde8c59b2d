CREATE TABLE "rota_package_keys" (
	"rota_package_keys_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_package_keys_rota_package_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rota_packages" (
	"rota_packages_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rota_packages_rota_packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rota_clients_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"git_url" text,
	"git_path" text,
	"git_username" text,
	"git_password_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_robot_versions" DROP CONSTRAINT "rota_robot_versions_rota_robots_id_rota_robots_rota_robots_id_fk";
--> statement-breakpoint
DROP INDEX "rota_robot_versions_robot_version_key";--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ALTER COLUMN "rota_robots_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "require_signed_packages" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "require_package_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "rota_packages_id" integer;--> statement-breakpoint
ALTER TABLE "rota_robots" ADD COLUMN "follow_latest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "rota_packages_id" integer;--> statement-breakpoint
-- Each robot that has versions gets a package of its name (robot names are unique per client,
-- as package names are) holding its versions; it keeps running its current version.
INSERT INTO "rota_packages" ("rota_clients_id", "name", "description")
SELECT r."rota_clients_id", r."name", r."description" FROM "rota_robots" r
WHERE EXISTS (SELECT 1 FROM "rota_robot_versions" v WHERE v."rota_robots_id" = r."rota_robots_id");--> statement-breakpoint
UPDATE "rota_robots" r SET "rota_packages_id" = p."rota_packages_id" FROM "rota_packages" p
WHERE p."rota_clients_id" = r."rota_clients_id" AND p."name" = r."name";--> statement-breakpoint
UPDATE "rota_robot_versions" v SET "rota_packages_id" = r."rota_packages_id" FROM "rota_robots" r
WHERE r."rota_robots_id" = v."rota_robots_id";--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ALTER COLUMN "rota_packages_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "signature" text;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "rota_package_keys_id" integer;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
UPDATE "rota_robot_versions" SET "approved_at" = "created_at";--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "git_ref" text;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD COLUMN "git_commit" text;--> statement-breakpoint
ALTER TABLE "rota_package_keys" ADD CONSTRAINT "rota_package_keys_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_packages" ADD CONSTRAINT "rota_packages_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_package_keys_client_fingerprint_key" ON "rota_package_keys" USING btree ("rota_clients_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "rota_packages_client_name_key" ON "rota_packages" USING btree ("rota_clients_id",lower("name"));--> statement-breakpoint
CREATE INDEX "rota_packages_client_name_idx" ON "rota_packages" USING btree ("rota_clients_id","name");--> statement-breakpoint
ALTER TABLE "rota_robots" ADD CONSTRAINT "rota_robots_rota_packages_id_rota_packages_rota_packages_id_fk" FOREIGN KEY ("rota_packages_id") REFERENCES "public"."rota_packages"("rota_packages_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_rota_packages_id_rota_packages_rota_packages_id_fk" FOREIGN KEY ("rota_packages_id") REFERENCES "public"."rota_packages"("rota_packages_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_rota_package_keys_id_rota_package_keys_rota_package_keys_id_fk" FOREIGN KEY ("rota_package_keys_id") REFERENCES "public"."rota_package_keys"("rota_package_keys_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_approved_by_users_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("users_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rota_robot_versions" ADD CONSTRAINT "rota_robot_versions_rota_robots_id_rota_robots_rota_robots_id_fk" FOREIGN KEY ("rota_robots_id") REFERENCES "public"."rota_robots"("rota_robots_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rota_robot_versions_package_version_key" ON "rota_robot_versions" USING btree ("rota_packages_id",lower("version"));--> statement-breakpoint
CREATE INDEX "rota_robot_versions_package_created_idx" ON "rota_robot_versions" USING btree ("rota_packages_id","created_at");