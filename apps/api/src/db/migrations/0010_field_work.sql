CREATE TABLE "detector_profiles" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"provinces" text[] DEFAULT '{}'::text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"school_site_id" bigint NOT NULL,
	"detector_user_id" bigint NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pianificata' NOT NULL,
	"report" text,
	"teachers_met" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"outcome_note" text,
	"review_state" text,
	"review_note" text,
	"reported_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "visits_report_when_done" CHECK ("visits"."state" <> 'svolta' or "visits"."report" is not null)
);
--> statement-breakpoint
ALTER TABLE "detector_profiles" ADD CONSTRAINT "detector_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_school_site_id_school_sites_id_fk" FOREIGN KEY ("school_site_id") REFERENCES "public"."school_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_detector_user_id_users_id_fk" FOREIGN KEY ("detector_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_site_idx" ON "visits" USING btree ("school_site_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "visits_detector_idx" ON "visits" USING btree ("detector_user_id","state","scheduled_at");