CREATE TABLE "rota_execution_totals" (
	"rota_clients_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "rota_execution_totals_rota_clients_id_status_pk" PRIMARY KEY("rota_clients_id","status")
);
--> statement-breakpoint
-- A database whose days are filled already starts its totals from their merged rows; the
-- changes not merged yet are read beside them until the next merge folds them into both.
INSERT INTO "rota_execution_totals" ("rota_clients_id", "status", "n")
  SELECT "rota_clients_id", "status", sum("n") FROM "rota_execution_days" WHERE "merged" GROUP BY 1, 2;
