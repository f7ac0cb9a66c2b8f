CREATE TABLE "visit_reassignments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_reassignments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"visit_id" bigint NOT NULL,
	"from_detector_user_id" bigint NOT NULL,
	"to_detector_user_id" bigint NOT NULL,
	"reassigned_by_user_id" bigint,
	"reassigned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visit_reassignments" ADD CONSTRAINT "visit_reassignments_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."visits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reassignments" ADD CONSTRAINT "visit_reassignments_from_detector_user_id_users_id_fk" FOREIGN KEY ("from_detector_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reassignments" ADD CONSTRAINT "visit_reassignments_to_detector_user_id_users_id_fk" FOREIGN KEY ("to_detector_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reassignments" ADD CONSTRAINT "visit_reassignments_reassigned_by_user_id_users_id_fk" FOREIGN KEY ("reassigned_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_reassignments_visit_idx" ON "visit_reassignments" USING btree ("visit_id","from_detector_user_id");