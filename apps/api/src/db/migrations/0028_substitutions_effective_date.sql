ALTER TABLE "substitutions" ADD COLUMN "applied_at" timestamp with time zone;--> statement-breakpoint
-- Until now approval applied the substitution at once.
UPDATE "substitutions" SET "applied_at" = "decided_at" WHERE "state" = 'approvata';--> statement-breakpoint
CREATE INDEX "substitutions_due_idx" ON "substitutions" USING btree ("effective_on") WHERE "substitutions"."state" = 'approvata' and "substitutions"."applied_at" is null;