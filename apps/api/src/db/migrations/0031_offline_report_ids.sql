CREATE TABLE "visit_report_submissions" (
	"client_report_id" uuid PRIMARY KEY NOT NULL,
	"visit_id" bigint NOT NULL,
	"detector_user_id" bigint NOT NULL,
	"payload_hash" text NOT NULL,
	"report" text NOT NULL,
	"teachers_met" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"outcome" text NOT NULL,
	"visit_state" text NOT NULL,
	"status" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD CONSTRAINT "visit_report_submissions_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."visits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_submissions" ADD CONSTRAINT "visit_report_submissions_detector_user_id_users_id_fk" FOREIGN KEY ("detector_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_report_submissions_conflicts_idx" ON "visit_report_submissions" USING btree ("outcome","created_at");--> statement-breakpoint
CREATE INDEX "visit_report_submissions_visit_idx" ON "visit_report_submissions" USING btree ("visit_id");