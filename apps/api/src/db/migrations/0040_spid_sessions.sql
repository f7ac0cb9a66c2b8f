CREATE TABLE "spid_sessions" (
	"session_id" bigint PRIMARY KEY NOT NULL,
	"idp_entity_id" text NOT NULL,
	"name_id" text NOT NULL,
	"name_id_format" text,
	"session_index" text,
	"created_at" timestamp with time zone NOT NULL,
	"logout_request_id" text,
	"logout_requested_at" timestamp with time zone,
	"provider_logged_out_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "spid_sessions" ADD CONSTRAINT "spid_sessions_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spid_sessions_name_id_idx" ON "spid_sessions" USING btree ("idp_entity_id","name_id");--> statement-breakpoint
CREATE UNIQUE INDEX "spid_sessions_logout_request_idx" ON "spid_sessions" USING btree ("logout_request_id");