CREATE TABLE "tallies" (
	"name" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "tallies_name_key_pk" PRIMARY KEY("name","key")
);
--> statement-breakpoint
-- Decision 033: counts kept by the writes. One statement trigger per event (a trigger with transition
-- tables has a single event); each adds the statement's rows per key, in key order (no deadlock between
-- two writers), so the tally changes in the writer's transaction.
CREATE FUNCTION tally_teacher_review_states() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tallies (name, key, n) SELECT 'teacher_review_state', review_state, count(*) FROM new_rows GROUP BY review_state ORDER BY review_state
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tallies (name, key, n) SELECT 'teacher_review_state', review_state, -count(*) FROM old_rows GROUP BY review_state ORDER BY review_state
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  ELSE
    INSERT INTO tallies (name, key, n)
      SELECT 'teacher_review_state', k, sum(d) FROM (SELECT review_state AS k, 1 AS d FROM new_rows UNION ALL SELECT review_state, -1 FROM old_rows) c
      GROUP BY k HAVING sum(d) <> 0 ORDER BY k
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tally_insert AFTER INSERT ON teacher_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_teacher_review_states();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tally_update AFTER UPDATE ON teacher_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_teacher_review_states();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tally_delete AFTER DELETE ON teacher_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_teacher_review_states();--> statement-breakpoint
CREATE FUNCTION tally_review_states() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tallies (name, key, n) SELECT 'reviews:' || type, state, count(*) FROM new_rows GROUP BY type, state ORDER BY 1, 2
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tallies (name, key, n) SELECT 'reviews:' || type, state, -count(*) FROM old_rows GROUP BY type, state ORDER BY 1, 2
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  ELSE
    INSERT INTO tallies (name, key, n)
      SELECT t, k, sum(d) FROM (SELECT 'reviews:' || type AS t, state AS k, 1 AS d FROM new_rows UNION ALL SELECT 'reviews:' || type, state, -1 FROM old_rows) c
      GROUP BY t, k HAVING sum(d) <> 0 ORDER BY t, k
      ON CONFLICT (name, key) DO UPDATE SET n = tallies.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reviews_tally_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_review_states();--> statement-breakpoint
CREATE TRIGGER reviews_tally_update AFTER UPDATE ON reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_review_states();--> statement-breakpoint
CREATE TRIGGER reviews_tally_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_review_states();--> statement-breakpoint
-- A truncated table counts nothing.
CREATE FUNCTION tally_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tallies WHERE name = TG_ARGV[0] OR name LIKE TG_ARGV[0] || ':%';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tally_truncate AFTER TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION tally_truncate('teacher_review_state');--> statement-breakpoint
CREATE TRIGGER reviews_tally_truncate AFTER TRUNCATE ON reviews FOR EACH STATEMENT EXECUTE FUNCTION tally_truncate('reviews');--> statement-breakpoint
-- The counts of the rows already there (the triggers keep them from now on: the migration runs alone, under the migration lock).
INSERT INTO tallies (name, key, n) SELECT 'teacher_review_state', review_state, count(*) FROM teacher_profiles GROUP BY review_state;--> statement-breakpoint
INSERT INTO tallies (name, key, n) SELECT 'reviews:' || type, state, count(*) FROM reviews GROUP BY type, state;
