ALTER TABLE "visit_report_submissions" ADD COLUMN "conflict_code" text;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD COLUMN "imported_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD COLUMN "resolved_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD CONSTRAINT "visit_report_submissions_imported_by_user_id_users_id_fk" FOREIGN KEY ("imported_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD CONSTRAINT "visit_report_submissions_resolved_by_user_id_users_id_fk" FOREIGN KEY ("resolved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_report_submissions_detector_idx" ON "visit_report_submissions" USING btree ("detector_user_id","created_at");--> statement-breakpoint
-- The conflicts kept before this migration were all cancelled or missed visits (decision 043).
UPDATE "visit_report_submissions" SET "conflict_code" = 'visit_changed' WHERE "outcome" = 'conflict';
