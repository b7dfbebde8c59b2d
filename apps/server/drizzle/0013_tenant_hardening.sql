-- The PostgreSQL target (host, port, user, database) a stored db_pass was typed for: the
-- connection test sends the stored password to that target only (issue 11).
ALTER TABLE "rota_environments" ADD COLUMN "db_pass_target" text;
