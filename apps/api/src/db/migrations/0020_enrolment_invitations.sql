CREATE TABLE "enrolment_invitations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enrolment_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"enrolment_id" bigint NOT NULL,
	"institute_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"roles" text[] NOT NULL,
	"tax_code" text NOT NULL,
	"state" text DEFAULT 'in_attesa' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD CONSTRAINT "enrolment_invitations_enrolment_id_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD CONSTRAINT "enrolment_invitations_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_invitations" ADD CONSTRAINT "enrolment_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrolment_invitations_user_idx" ON "enrolment_invitations" USING btree ("user_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_invitations_enrolment_user_idx" ON "enrolment_invitations" USING btree ("enrolment_id","user_id");