CREATE TABLE "row_counts" (
	"rota_clients_id" integer NOT NULL,
	"table_name" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "row_counts_rota_clients_id_table_name_pk" PRIMARY KEY("rota_clients_id","table_name")
);
--> statement-breakpoint
CREATE FUNCTION "row_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, count(*) FROM new_rows GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "row_counts" rc SET "n" = rc."n" - gone."n"
  FROM (SELECT "rota_clients_id", count(*) AS "n" FROM old_rows GROUP BY "rota_clients_id") gone
  WHERE rc."rota_clients_id" = gone."rota_clients_id" AND rc."table_name" = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_live_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, count(*) FROM new_rows
  WHERE "deleted_at" IS NULL GROUP BY "rota_clients_id"
  ON CONFLICT ("rota_clients_id", "table_name") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_live_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "row_counts" rc SET "n" = rc."n" - gone."n"
  FROM (SELECT "rota_clients_id", count(*) AS "n" FROM old_rows
        WHERE "deleted_at" IS NULL GROUP BY "rota_clients_id") gone
  WHERE rc."rota_clients_id" = gone."rota_clients_id" AND rc."table_name" = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "row_counts_live_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "row_counts" AS rc ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", TG_TABLE_NAME, sum("delta") FROM (
    SELECT "rota_clients_id", 1 AS "delta" FROM new_rows WHERE "deleted_at" IS NULL
    UNION ALL
    SELECT "rota_clients_id", -1 FROM old_rows WHERE "deleted_at" IS NULL
  ) d GROUP BY "rota_clients_id" HAVING sum("delta") <> 0
  ON CONFLICT ("rota_clients_id", "table_name") DO UPDATE SET "n" = rc."n" + excluded."n";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "rota_robots_count_add" AFTER INSERT ON "rota_robots" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_robots_count_remove" AFTER DELETE ON "rota_robots" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_robots', count(*) FROM "rota_robots" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_robot_fields_count_add" AFTER INSERT ON "rota_robot_fields" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_robot_fields_count_remove" AFTER DELETE ON "rota_robot_fields" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_robot_fields', count(*) FROM "rota_robot_fields" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_tasks_count_add" AFTER INSERT ON "rota_tasks" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_tasks_count_remove" AFTER DELETE ON "rota_tasks" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_tasks', count(*) FROM "rota_tasks" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_vms_count_add" AFTER INSERT ON "rota_vms" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_vms_count_remove" AFTER DELETE ON "rota_vms" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_vms', count(*) FROM "rota_vms" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_nodes_count_add" AFTER INSERT ON "rota_nodes" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_nodes_count_remove" AFTER DELETE ON "rota_nodes" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_nodes', count(*) FROM "rota_nodes" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_parameters_count_add" AFTER INSERT ON "rota_parameters" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "rota_parameters_count_remove" AFTER DELETE ON "rota_parameters" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_parameters', count(*) FROM "rota_parameters" GROUP BY "rota_clients_id";--> statement-breakpoint
CREATE TRIGGER "rota_schedulings_count_add" AFTER INSERT ON "rota_schedulings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_live_add"();--> statement-breakpoint
CREATE TRIGGER "rota_schedulings_count_remove" AFTER DELETE ON "rota_schedulings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_live_remove"();--> statement-breakpoint
CREATE TRIGGER "rota_schedulings_count_change" AFTER UPDATE ON "rota_schedulings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_live_change"();--> statement-breakpoint
INSERT INTO "row_counts" ("rota_clients_id", "table_name", "n")
  SELECT "rota_clients_id", 'rota_schedulings', count(*) FROM "rota_schedulings" WHERE "deleted_at" IS NULL GROUP BY "rota_clients_id";
