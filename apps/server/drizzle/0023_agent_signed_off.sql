-- A goodbye said to one instance while another holds the agent's last heartbeat for its presence
-- flush (issue 18): the flush leaves alone an agent signed off since its heartbeats began to be
-- gathered, so it is not written online again (nor announced back). Nullable, no default: the
-- column is added without rewriting the table.
ALTER TABLE "rota_nodes" ADD COLUMN "signed_off_at" timestamp with time zone;
