CREATE TABLE "survey_result_snapshots" (
	"survey_id" bigint NOT NULL,
	"participant_group" text NOT NULL,
	"stamp" text NOT NULL,
	"payload" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"compute_ms" integer NOT NULL,
	CONSTRAINT "survey_result_snapshots_pk" PRIMARY KEY("survey_id","participant_group")
);
--> statement-breakpoint
ALTER TABLE "survey_result_snapshots" ADD CONSTRAINT "survey_result_snapshots_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;