DROP INDEX "audit_log_actor_idx";--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","at","id","entity","entity_id");