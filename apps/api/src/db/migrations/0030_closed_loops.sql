ALTER TABLE "email_verifications" ADD COLUMN "change_request" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "substitutions" ADD COLUMN "applied_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "access_codes_code_upper_idx" ON "access_codes" USING btree (upper("code"));--> statement-breakpoint
CREATE INDEX "substitutions_due_idx" ON "substitutions" USING btree ("effective_on") WHERE "substitutions"."state" = 'approvata' and "substitutions"."applied_at" is null;--> statement-breakpoint
-- Issue 35 (merged from four migrations). Decision 038: until now approval applied a substitution at once.
UPDATE "substitutions" SET "applied_at" = "decided_at" WHERE "state" = 'approvata';--> statement-breakpoint
-- Decision 040: the public figures count registered teachers as the staff dashboard does (teacher
-- profiles not rejected, read from the tallies the profiles keep). A new version on every change of them.
CREATE TRIGGER teacher_profiles_figures_write AFTER INSERT OR DELETE OR TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER teacher_profiles_figures_update AFTER UPDATE OF review_state ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');
