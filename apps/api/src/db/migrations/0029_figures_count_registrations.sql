-- The public figures count registered teachers as the staff dashboard does (decision 040): teacher
-- profiles not rejected, read from the tallies the profiles keep. A new version on every change of them.
CREATE TRIGGER teacher_profiles_figures_write AFTER INSERT OR DELETE OR TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER teacher_profiles_figures_update AFTER UPDATE OF review_state ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');
