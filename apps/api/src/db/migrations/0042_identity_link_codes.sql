ALTER TABLE "pending_identities" ADD COLUMN "link_code_hash" text;--> statement-breakpoint
ALTER TABLE "pending_identities" ADD COLUMN "link_code_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pending_identities" ADD COLUMN "link_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pending_identities" ADD COLUMN "link_codes_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_identities" ADD COLUMN "link_code_failures" integer DEFAULT 0 NOT NULL;