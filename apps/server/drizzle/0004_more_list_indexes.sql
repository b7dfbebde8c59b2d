CREATE INDEX "rota_parameters_client_updated_idx" ON "rota_parameters" USING btree ("rota_clients_id","updated_at");--> statement-breakpoint
CREATE INDEX "rota_vms_label_trgm" ON "rota_vms" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_vms_client_hostname_idx" ON "rota_vms" USING btree ("rota_clients_id","hostname");