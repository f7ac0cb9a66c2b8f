CREATE TABLE "data_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"topic" text NOT NULL,
	"weight" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "data_changes_topic_idx" ON "data_changes" USING btree ("topic","id");--> statement-breakpoint
-- One row per writing statement, in the writer's transaction (decision 020): no row is shared between
-- writers, so writers never wait on each other, and a reader's snapshot holds exactly the committed ones.
CREATE FUNCTION note_data_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_changes (topic) VALUES (TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
-- The map (GET /api/map/school-sites) reads the plessi's place, level, region, province, detector and
-- participation, and their institute's adhesion state.
CREATE TRIGGER school_sites_map_write AFTER INSERT OR DELETE OR TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('map');--> statement-breakpoint
CREATE TRIGGER school_sites_map_update AFTER UPDATE OF institute_id, school_level, province, region, latitude, longitude, detector_user_id, participating ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('map');--> statement-breakpoint
CREATE TRIGGER institutes_map_update AFTER UPDATE OF adhesion_state ON institutes FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('map');
