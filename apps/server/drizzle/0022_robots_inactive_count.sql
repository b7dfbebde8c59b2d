-- The robots list filtered on `active` (issue 18): its total came from counting every matching
-- row (≈3 ms at 33,000 inactive robots, most of the filtered page's cost). `row_counts` now
-- also keeps each client's inactive rows as '<table>.inactive'; the active ones are the
-- table's count minus those. Statement triggers, as migration 0008's.
CREATE FUNCTION "row_counts_inactive_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME || '.inactive', count(*) FROM new_rows
  WHERE NOT "active" GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_inactive_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "row_counts" rc SET "n" = rc."n" - gone."n"
  FROM (SELECT "rota_clients_id", count(*) AS "n" FROM old_rows
        WHERE NOT "active" GROUP BY "rota_clients_id") gone
  WHERE rc."rota_clients_id" = gone."rota_clients_id"
    AND rc."table_name" = TG_TABLE_NAME || '.inactive';
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_inactive_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME || '.inactive', sum("delta") FROM (
    SELECT "rota_clients_id", 1 AS "delta" FROM new_rows WHERE NOT "active"
    UNION ALL
    SELECT "rota_clients_id", -1 FROM old_rows WHERE NOT "active"
  ) d GROUP BY "rota_clients_id" HAVING sum("delta") <> 0
  ON CONFLICT ("rota_clients_id", "table_name") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "rota_robots_inactive_add" AFTER INSERT ON "rota_robots" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_inactive_add"();--> statement-breakpoint
CREATE TRIGGER "rota_robots_inactive_remove" AFTER DELETE ON "rota_robots" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_inactive_remove"();--> statement-breakpoint
CREATE TRIGGER "rota_robots_inactive_change" AFTER UPDATE ON "rota_robots" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_inactive_change"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_robots.inactive', count(*) FROM "rota_robots"
  WHERE NOT "active" GROUP BY "rota_clients_id";
