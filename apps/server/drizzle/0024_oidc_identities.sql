CREATE TABLE "oidc_identities" (
	"oidc_identities_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oidc_identities_oidc_identities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"users_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oidc_mappings" ADD COLUMN "auto_link_domains" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_identities" ADD CONSTRAINT "oidc_identities_users_id_users_users_id_fk" FOREIGN KEY ("users_id") REFERENCES "public"."users"("users_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_identities_issuer_subject_key" ON "oidc_identities" USING btree ("issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_identities_user_key" ON "oidc_identities" USING btree ("users_id");--> statement-breakpoint
-- Links made before: kept (their issuer unrecorded, claimed at the next sign-in), except a
-- platform administrator's, which the old e-mail matching could have made for anyone.
INSERT INTO "oidc_identities" ("users_id", "issuer", "subject")
SELECT "users_id", '', "oidc_subject" FROM "users"
WHERE "oidc_subject" IS NOT NULL AND NOT "is_platform_admin";--> statement-breakpoint
UPDATE "users" SET "oidc_subject" = NULL WHERE "oidc_subject" IS NOT NULL;
