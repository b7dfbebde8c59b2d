-- A count was one row per client and table, so every writer of a counted table (a fleet's robots
-- adding queue items) waited on that row until the writer before it committed. Each connection
-- now adds to its own slot (its backend's pid modulo 16) and a count is the sum of its slots.
-- Removals add a negative delta to the remover's slot rather than updating a shared row.
ALTER TABLE "row_counts" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "row_counts" DROP CONSTRAINT "row_counts_rota_clients_id_table_name_pk";--> statement-breakpoint
ALTER TABLE "row_counts" ADD CONSTRAINT "row_counts_rota_clients_id_table_name_slot_pk" PRIMARY KEY("rota_clients_id","table_name","slot");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, (pg_backend_pid() % 16)::smallint, count(*) FROM new_rows GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, (pg_backend_pid() % 16)::smallint, -count(*) FROM old_rows GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_live_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, (pg_backend_pid() % 16)::smallint, count(*) FROM new_rows
  WHERE "deleted_at" IS NULL GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_live_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, (pg_backend_pid() % 16)::smallint, -count(*) FROM old_rows
  WHERE "deleted_at" IS NULL GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_live_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, (pg_backend_pid() % 16)::smallint, sum("delta") FROM (
    SELECT "rota_clients_id", 1 AS "delta" FROM new_rows WHERE "deleted_at" IS NULL
    UNION ALL
    SELECT "rota_clients_id", -1 FROM old_rows WHERE "deleted_at" IS NULL
  ) d GROUP BY "rota_clients_id" HAVING sum("delta") <> 0
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_inactive_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME || '.inactive', (pg_backend_pid() % 16)::smallint, count(*) FROM new_rows
  WHERE NOT "active" GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_inactive_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME || '.inactive', (pg_backend_pid() % 16)::smallint, -count(*) FROM old_rows
  WHERE NOT "active" GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "row_counts_inactive_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "slot", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME || '.inactive', (pg_backend_pid() % 16)::smallint, sum("delta") FROM (
    SELECT "rota_clients_id", 1 AS "delta" FROM new_rows WHERE NOT "active"
    UNION ALL
    SELECT "rota_clients_id", -1 FROM old_rows WHERE NOT "active"
  ) d GROUP BY "rota_clients_id" HAVING sum("delta") <> 0
  ON CONFLICT ("rota_clients_id", "table_name", "slot") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;
