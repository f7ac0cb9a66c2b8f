-- The public key figures (GET /api/public/figures) as a data-version topic (decision 020): enrolled
-- institutes, participating plessi, registered teachers and educators.
CREATE TRIGGER institutes_figures_write AFTER INSERT OR DELETE OR TRUNCATE ON institutes FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER institutes_figures_update AFTER UPDATE OF adhesion_state ON institutes FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER school_sites_figures_write AFTER INSERT OR DELETE OR TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER school_sites_figures_update AFTER UPDATE OF participating ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER user_roles_figures_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_roles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');--> statement-breakpoint
CREATE TRIGGER roles_figures_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('figures');
