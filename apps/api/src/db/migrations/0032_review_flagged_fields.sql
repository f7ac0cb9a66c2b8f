ALTER TABLE "reviews" ADD COLUMN "flagged_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "review_fields" text[] DEFAULT '{}'::text[] NOT NULL;