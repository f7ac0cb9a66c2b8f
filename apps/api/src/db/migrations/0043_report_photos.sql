CREATE TABLE "visit_report_photos" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_report_photos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_report_id" uuid NOT NULL,
	"photo_index" integer NOT NULL,
	"detector_user_id" bigint NOT NULL,
	"file_key" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "visit_report_photos_index_check" CHECK ("visit_report_photos"."photo_index" between 0 and 4)
);
--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD CONSTRAINT "visit_report_photos_client_report_id_visit_report_submissions_client_report_id_fk" FOREIGN KEY ("client_report_id") REFERENCES "public"."visit_report_submissions"("client_report_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD CONSTRAINT "visit_report_photos_detector_user_id_users_id_fk" FOREIGN KEY ("detector_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visit_report_photos_report_index_key" ON "visit_report_photos" USING btree ("client_report_id","photo_index");--> statement-breakpoint
CREATE INDEX "visit_report_photos_detector_idx" ON "visit_report_photos" USING btree ("detector_user_id");