DROP INDEX "rota_robot_fields_client_idx";--> statement-breakpoint
CREATE INDEX "rota_nodes_client_name_idx" ON "rota_nodes" USING btree ("rota_clients_id","name");--> statement-breakpoint
CREATE INDEX "rota_nodes_name_trgm" ON "rota_nodes" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_parameters_client_name_idx" ON "rota_parameters" USING btree ("rota_clients_id","name");--> statement-breakpoint
CREATE INDEX "rota_parameters_name_trgm" ON "rota_parameters" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_parameters_description_trgm" ON "rota_parameters" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robot_fields_name_trgm" ON "rota_robot_fields" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robot_fields_label_trgm" ON "rota_robot_fields" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robot_versions_robot_created_idx" ON "rota_robot_versions" USING btree ("rota_robots_id","created_at");--> statement-breakpoint
CREATE INDEX "rota_robots_client_name_idx" ON "rota_robots" USING btree ("rota_clients_id","name");--> statement-breakpoint
CREATE INDEX "rota_robots_name_trgm" ON "rota_robots" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robots_executor_trgm" ON "rota_robots" USING gin ("executor" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robots_description_trgm" ON "rota_robots" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_schedulings_client_name_idx" ON "rota_schedulings" USING btree ("rota_clients_id","name");--> statement-breakpoint
CREATE INDEX "rota_schedulings_name_trgm" ON "rota_schedulings" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_tasks_label_trgm" ON "rota_tasks" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_vms_client_name_idx" ON "rota_vms" USING btree ("rota_clients_id","name");--> statement-breakpoint
CREATE INDEX "rota_vms_name_trgm" ON "rota_vms" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_vms_hostname_trgm" ON "rota_vms" USING gin ("hostname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rota_robot_fields_client_idx" ON "rota_robot_fields" USING btree ("rota_clients_id","name");