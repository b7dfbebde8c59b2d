-- Audit records stay append-only, with one exception: retention (issue 14) deletes those older
-- than the client's audit_retention_days. It says so for its own transaction with
-- set_config('rota.audit_retention', 'on', true), a setting any role may set, so the database
-- role needs no superuser power (session_replication_role does). UPDATE is always refused.
CREATE OR REPLACE FUNCTION "audit_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('rota.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_logs is append-only';
END;
$$;
