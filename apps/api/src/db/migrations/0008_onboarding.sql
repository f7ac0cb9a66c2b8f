CREATE TABLE "adhesion_documents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adhesion_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institute_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"template_key" text NOT NULL,
	"template_version" integer NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"created_by_user_id" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adhesion_reminders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adhesion_reminders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institute_id" bigint NOT NULL,
	"adhesion_state" text NOT NULL,
	"sent_on" date NOT NULL,
	"sent_by_user_id" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adhesion_signatures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adhesion_signatures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institute_id" bigint NOT NULL,
	"document_id" bigint NOT NULL,
	"method" text NOT NULL,
	"signer_user_id" bigint,
	"signer_name" text NOT NULL,
	"signer_tax_code" text,
	"signed_at" timestamp with time zone NOT NULL,
	"ip" text,
	"document_sha256" text NOT NULL,
	"signed_file" "bytea",
	"signed_file_sha256" text,
	"signed_file_name" text,
	"certificate_subject" text,
	"certificate_issuer" text,
	"certificate_serial" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enrolments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institute_id" bigint NOT NULL,
	"phone_verification_id" uuid NOT NULL,
	"applicant_phone" text NOT NULL,
	"principal_user_id" bigint,
	"first_contact_user_id" bigint,
	"school_site_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"privacy_accepted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "enrolments_phone_verification_id_unique" UNIQUE("phone_verification_id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"submission_id" bigint,
	"state" text DEFAULT 'in_attesa' NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"claimed_by_user_id" bigint,
	"claimed_until" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" bigint,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "signature_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"document_id" bigint NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "adhesion_documents" ADD CONSTRAINT "adhesion_documents_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_documents" ADD CONSTRAINT "adhesion_documents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_reminders" ADD CONSTRAINT "adhesion_reminders_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_reminders" ADD CONSTRAINT "adhesion_reminders_sent_by_user_id_users_id_fk" FOREIGN KEY ("sent_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_signatures" ADD CONSTRAINT "adhesion_signatures_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_signatures" ADD CONSTRAINT "adhesion_signatures_document_id_adhesion_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."adhesion_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adhesion_signatures" ADD CONSTRAINT "adhesion_signatures_signer_user_id_users_id_fk" FOREIGN KEY ("signer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_phone_verification_id_phone_verifications_id_fk" FOREIGN KEY ("phone_verification_id") REFERENCES "public"."phone_verifications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_principal_user_id_users_id_fk" FOREIGN KEY ("principal_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_first_contact_user_id_users_id_fk" FOREIGN KEY ("first_contact_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_claimed_by_user_id_users_id_fk" FOREIGN KEY ("claimed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_challenges" ADD CONSTRAINT "signature_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_challenges" ADD CONSTRAINT "signature_challenges_document_id_adhesion_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."adhesion_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "adhesion_documents_institute_version_idx" ON "adhesion_documents" USING btree ("institute_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "adhesion_reminders_day_idx" ON "adhesion_reminders" USING btree ("institute_id","sent_on");--> statement-breakpoint
CREATE INDEX "adhesion_signatures_institute_idx" ON "adhesion_signatures" USING btree ("institute_id","created_at");--> statement-breakpoint
CREATE INDEX "enrolments_institute_idx" ON "enrolments" USING btree ("institute_id");--> statement-breakpoint
CREATE INDEX "reviews_queue_idx" ON "reviews" USING btree ("type","state","submitted_at","id");--> statement-breakpoint
CREATE INDEX "reviews_subject_idx" ON "reviews" USING btree ("type","subject_id","submitted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_one_pending_idx" ON "reviews" USING btree ("type","subject_id") WHERE "reviews"."state" = 'in_attesa';--> statement-breakpoint
CREATE INDEX "signature_challenges_user_idx" ON "signature_challenges" USING btree ("user_id","created_at");--> statement-breakpoint
-- Existing teacher registrations and signed adhesions enter their review queues.
INSERT INTO "reviews" ("type", "subject_id", "state", "submitted_at")
  SELECT 'insegnanti', "id", "review_state", "created_at" FROM "teacher_profiles";--> statement-breakpoint
INSERT INTO "reviews" ("type", "subject_id", "state", "submitted_at")
  SELECT 'adesioni', "id", 'in_attesa', coalesce("adhesion_state_changed_at", "updated_at") FROM "institutes" WHERE "adhesion_state" = 'adesione_firmata';
