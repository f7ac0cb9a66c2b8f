ALTER TABLE "enrolment_invitations" ALTER COLUMN "enrolment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD COLUMN "kind" text DEFAULT 'iscrizione' NOT NULL;--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD COLUMN "invited_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD CONSTRAINT "enrolment_invitations_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrolment_invitations_institute_idx" ON "enrolment_invitations" USING btree ("institute_id","state");