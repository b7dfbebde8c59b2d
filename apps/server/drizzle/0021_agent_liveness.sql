DROP INDEX "rota_nodes_client_last_seen_idx";--> statement-breakpoint
CREATE INDEX "rota_nodes_client_online_idx" ON "rota_nodes" USING btree ("rota_clients_id","online");