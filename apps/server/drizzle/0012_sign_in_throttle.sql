-- Issue 11: sign-in throttles that slow a guesser without locking the owner out, and recovery
-- requests queued in a durable outbox so the request path does the same work for every email.
CREATE TABLE "sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_last_failure_idx" ON "sign_in_throttles" USING btree ("last_failure_at");
--> statement-breakpoint
CREATE TABLE "recovery_outbox" (
	"recovery_outbox_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recovery_outbox_recovery_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"lang" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "recovery_outbox_next_attempt_idx" ON "recovery_outbox" USING btree ("next_attempt_at");
