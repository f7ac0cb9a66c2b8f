CREATE TABLE "access_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"survey_id" bigint NOT NULL,
	"school_site_id" bigint NOT NULL,
	"class_label" text,
	"owner_user_id" bigint,
	"created_by_user_id" bigint,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "access_codes_code_check" CHECK ("access_codes"."code" ~ '^[A-Za-z0-9]{7}$'),
	CONSTRAINT "access_codes_uses_check" CHECK ("access_codes"."max_uses" > 0 and "access_codes"."uses" >= 0 and "access_codes"."uses" <= "access_codes"."max_uses")
);
--> statement-breakpoint
CREATE TABLE "survey_questions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_questions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"survey_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"label" text NOT NULL,
	"help" text DEFAULT '' NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"survey_id" bigint NOT NULL,
	"school_site_id" bigint,
	"user_id" bigint,
	"access_code_id" bigint,
	"answers" jsonb NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_models" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "action_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text NOT NULL,
	"target" text NOT NULL,
	"default_duration_days" integer NOT NULL,
	"evidence" text DEFAULT 'nessuna' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by_user_id" bigint,
	"updated_by_user_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"model_id" bigint NOT NULL,
	"target" text NOT NULL,
	"target_key" text NOT NULL,
	"institute_id" bigint,
	"school_site_id" bigint,
	"teacher_user_id" bigint,
	"due_on" date NOT NULL,
	"state" text DEFAULT 'da_fare' NOT NULL,
	"evidence_text" text,
	"evidence_file_name" text,
	"evidence_content_type" text,
	"evidence_file" "bytea",
	"evidence_size_bytes" integer,
	"staff_note" text,
	"assigned_by_user_id" bigint,
	"completed_by_user_id" bigint,
	"verified_by_user_id" bigint,
	"completed_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "actions_one_target_check" CHECK (("actions"."target" = 'istituto' and "actions"."institute_id" is not null and "actions"."school_site_id" is null and "actions"."teacher_user_id" is null)
        or ("actions"."target" = 'plesso' and "actions"."school_site_id" is not null and "actions"."institute_id" is null and "actions"."teacher_user_id" is null)
        or ("actions"."target" = 'insegnante' and "actions"."teacher_user_id" is not null and "actions"."institute_id" is null and "actions"."school_site_id" is null))
);
--> statement-breakpoint
CREATE TABLE "substitutions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "substitutions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"school_site_id" bigint NOT NULL,
	"outgoing_user_id" bigint NOT NULL,
	"incoming_user_id" bigint,
	"incoming_email" text,
	"incoming_name" text,
	"reason" text NOT NULL,
	"effective_on" date NOT NULL,
	"state" text DEFAULT 'richiesta' NOT NULL,
	"requested_by_user_id" bigint,
	"decided_by_user_id" bigint,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "substitutions_incoming_check" CHECK ("substitutions"."incoming_user_id" is not null or "substitutions"."incoming_email" is not null)
);
--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "created_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "restored_from_version" integer;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "created_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "updated_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_school_site_id_school_sites_id_fk" FOREIGN KEY ("school_site_id") REFERENCES "public"."school_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_school_site_id_school_sites_id_fk" FOREIGN KEY ("school_site_id") REFERENCES "public"."school_sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_models" ADD CONSTRAINT "action_models_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_models" ADD CONSTRAINT "action_models_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_model_id_action_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."action_models"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_school_site_id_school_sites_id_fk" FOREIGN KEY ("school_site_id") REFERENCES "public"."school_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_teacher_user_id_users_id_fk" FOREIGN KEY ("teacher_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_assigned_by_user_id_users_id_fk" FOREIGN KEY ("assigned_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_completed_by_user_id_users_id_fk" FOREIGN KEY ("completed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_verified_by_user_id_users_id_fk" FOREIGN KEY ("verified_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitutions" ADD CONSTRAINT "substitutions_school_site_id_school_sites_id_fk" FOREIGN KEY ("school_site_id") REFERENCES "public"."school_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitutions" ADD CONSTRAINT "substitutions_outgoing_user_id_users_id_fk" FOREIGN KEY ("outgoing_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitutions" ADD CONSTRAINT "substitutions_incoming_user_id_users_id_fk" FOREIGN KEY ("incoming_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitutions" ADD CONSTRAINT "substitutions_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitutions" ADD CONSTRAINT "substitutions_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_codes_code_idx" ON "access_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "access_codes_owner_idx" ON "access_codes" USING btree ("owner_user_id","survey_id");--> statement-breakpoint
CREATE INDEX "access_codes_site_idx" ON "access_codes" USING btree ("school_site_id","survey_id");--> statement-breakpoint
CREATE INDEX "survey_questions_survey_idx" ON "survey_questions" USING btree ("survey_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_user_idx" ON "survey_responses" USING btree ("survey_id","user_id") WHERE "survey_responses"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "survey_responses_survey_site_idx" ON "survey_responses" USING btree ("survey_id","school_site_id");--> statement-breakpoint
CREATE INDEX "survey_responses_code_idx" ON "survey_responses" USING btree ("access_code_id");--> statement-breakpoint
CREATE UNIQUE INDEX "actions_model_target_idx" ON "actions" USING btree ("model_id","target_key");--> statement-breakpoint
CREATE INDEX "actions_state_due_idx" ON "actions" USING btree ("state","due_on");--> statement-breakpoint
CREATE INDEX "actions_institute_idx" ON "actions" USING btree ("institute_id") WHERE "actions"."institute_id" is not null;--> statement-breakpoint
CREATE INDEX "actions_site_idx" ON "actions" USING btree ("school_site_id") WHERE "actions"."school_site_id" is not null;--> statement-breakpoint
CREATE INDEX "actions_teacher_idx" ON "actions" USING btree ("teacher_user_id") WHERE "actions"."teacher_user_id" is not null;--> statement-breakpoint
CREATE INDEX "substitutions_state_idx" ON "substitutions" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "substitutions_site_idx" ON "substitutions" USING btree ("school_site_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "substitutions_open_idx" ON "substitutions" USING btree ("school_site_id","outgoing_user_id") WHERE "substitutions"."state" = 'richiesta';--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;