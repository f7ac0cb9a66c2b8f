DROP INDEX "audit_log_entity_idx";--> statement-breakpoint
DROP INDEX "audit_log_actor_idx";--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (lower("last_name" || ' ' || "first_name"),"id");--> statement-breakpoint
CREATE INDEX "teacher_profiles_created_idx" ON "teacher_profiles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "teacher_profiles_state_created_idx" ON "teacher_profiles" USING btree ("review_state","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_type_submitted_idx" ON "reviews" USING btree ("type","submitted_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","at","id");