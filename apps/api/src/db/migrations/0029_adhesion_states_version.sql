-- Decision 033 (progress per state): the data version (decision 020) of what the institutes per
-- adhesion state at a date are counted from: the transitions, the institutes' state and region, and
-- their plessi (how many, which participate). `/api/progress?groupBy=state` keeps its last answer per
-- date and region while this version stays the same.
CREATE TRIGGER institute_adhesion_transitions_states_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON institute_adhesion_transitions FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('adhesion-states');--> statement-breakpoint
CREATE TRIGGER institutes_states_write AFTER INSERT OR DELETE OR TRUNCATE ON institutes FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('adhesion-states');--> statement-breakpoint
CREATE TRIGGER institutes_states_update AFTER UPDATE OF adhesion_state, region ON institutes FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('adhesion-states');--> statement-breakpoint
CREATE TRIGGER school_sites_states_write AFTER INSERT OR DELETE OR TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('adhesion-states');--> statement-breakpoint
CREATE TRIGGER school_sites_states_update AFTER UPDATE OF institute_id, participating ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('adhesion-states');
