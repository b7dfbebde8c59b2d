CREATE TABLE "mfa_challenges" (
	"mfa_challenges_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mfa_challenges_mfa_challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"users_id" integer NOT NULL,
	"challenge_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_mappings" (
	"oidc_mappings_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oidc_mappings_oidc_mappings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_value" text NOT NULL,
	"rota_clients_id" integer NOT NULL,
	"profiles_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_mfa" (
	"users_id" integer PRIMARY KEY NOT NULL,
	"secret_sealed" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_mfa_recovery_codes" (
	"user_mfa_recovery_codes_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_mfa_recovery_codes_user_mfa_recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"users_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rota_clients" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "method" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD CONSTRAINT "mfa_challenges_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_mappings" ADD CONSTRAINT "oidc_mappings_rota_clients_id_rota_clients_rota_clients_id_fk" FOREIGN KEY ("rota_clients_id") REFERENCES "public"."rota_clients"("rota_clients_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_mappings" ADD CONSTRAINT "oidc_mappings_profiles_id_profiles_profiles_id_fk" FOREIGN KEY ("profiles_id") REFERENCES "public"."profiles"("profiles_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa_recovery_codes" ADD CONSTRAINT "user_mfa_recovery_codes_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_challenges_hash_key" ON "mfa_challenges" USING btree ("challenge_hash");--> statement-breakpoint
CREATE INDEX "mfa_challenges_user_idx" ON "mfa_challenges" USING btree ("users_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_mappings_claim_client_key" ON "oidc_mappings" USING btree ("claim_value","rota_clients_id");--> statement-breakpoint
CREATE INDEX "oidc_mappings_client_idx" ON "oidc_mappings" USING btree ("rota_clients_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_mfa_recovery_codes_hash_key" ON "user_mfa_recovery_codes" USING btree ("users_id","code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_key" ON "users" USING btree ("oidc_subject");