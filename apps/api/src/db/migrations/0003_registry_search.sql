CREATE TABLE "institute_adhesion_transitions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "institute_adhesion_transitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institute_id" bigint NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor_user_id" bigint,
	"note" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "institutes_name_trgm_idx";--> statement-breakpoint
DROP INDEX "school_sites_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "institutes" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "institutes" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(translate(coalesce(name, '') || ' ' || coalesce(municipality_name, '') || ' ' || coalesce(ministry_code, ''), 'ÀÁÂÃÄÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜÇÑàáâãäèéêëìíîïòóôõöùúûüçñ''’`', 'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn   '))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "school_sites" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(translate(coalesce(name, '') || ' ' || coalesce(municipality_name, '') || ' ' || coalesce(ministry_code, ''), 'ÀÁÂÃÄÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜÇÑàáâãäèéêëìíîïòóôõöùúûüçñ''’`', 'aaaaaeeeeiiiiooooouuuucnaaaaaeeeeiiiiooooouuuucn   '))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "institute_adhesion_transitions" ADD CONSTRAINT "institute_adhesion_transitions_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institute_adhesion_transitions" ADD CONSTRAINT "institute_adhesion_transitions_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adhesion_transitions_institute_idx" ON "institute_adhesion_transitions" USING btree ("institute_id","at");--> statement-breakpoint
CREATE INDEX "adhesion_transitions_at_idx" ON "institute_adhesion_transitions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "institutes_search_trgm_idx" ON "institutes" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "institutes_adhesion_state_idx" ON "institutes" USING btree ("adhesion_state");--> statement-breakpoint
CREATE INDEX "school_sites_search_trgm_idx" ON "school_sites" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "school_sites_level_idx" ON "school_sites" USING btree ("school_level","institute_id");