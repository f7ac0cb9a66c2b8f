ALTER TABLE "visit_report_photos" ALTER COLUMN "file_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD COLUMN "deleted_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD CONSTRAINT "visit_report_photos_deleted_by_user_id_users_id_fk" FOREIGN KEY ("deleted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;