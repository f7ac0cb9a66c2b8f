-- The map's places as a data-version topic of their own (decision 020): which plessi there are, where,
-- in which institute, level, region and province. The topic 'map' also counts the writes of
-- participation, detectors and adhesion states; a write of those alone leaves 'map-places' unchanged,
-- and the map's answer is then rebuilt from its kept places and one narrow query.
CREATE TRIGGER school_sites_map_places_write AFTER INSERT OR DELETE OR TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('map-places');--> statement-breakpoint
CREATE TRIGGER school_sites_map_places_update AFTER UPDATE OF institute_id, school_level, province, region, latitude, longitude ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('map-places');
