CREATE TABLE "cie_sessions" (
	"session_id" bigint PRIMARY KEY NOT NULL,
	"id_token_sealed" text NOT NULL,
	"access_token_sealed" text,
	"created_at" timestamp with time zone NOT NULL,
	"logout_requested_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "acr" text;--> statement-breakpoint
ALTER TABLE "pending_identities" ADD COLUMN "logout_keys" jsonb;--> statement-breakpoint
ALTER TABLE "cie_sessions" ADD CONSTRAINT "cie_sessions_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;