CREATE TABLE "survey_result_tallies" (
	"survey_id" bigint NOT NULL,
	"participant_group" text NOT NULL,
	"region" text NOT NULL,
	"school_level" text NOT NULL,
	"question_id" bigint NOT NULL,
	"category" text NOT NULL,
	"n" integer NOT NULL,
	"first_id" bigint,
	CONSTRAINT "survey_result_tallies_pk" PRIMARY KEY("survey_id","participant_group","region","school_level","question_id","category")
);
--> statement-breakpoint
-- Decision 050: the public results' tallies kept by the writes that change them, so that the first
-- results call reads a few thousand rows instead of every response. A key is (survey, group of
-- respondents, the plesso's region, its level, question, category): question 0 with category '' is the
-- atomic group's respondents; region and level are '' for a response without a plesso. `n` counts the
-- counted responses (migration 0025 `survey_response_counts`) and `first_id` is the lowest of their
-- ids. Each source table has statement triggers (transition tables) handing the changed rows to a delta
-- function as arrays: it adds the new rows' keys and subtracts the old rows', each placed and counted
-- with the other tables as they are now, so any sequence of statements ends where counting the
-- responses would. Keys are written in order (no deadlock between two writers).
-- The category of an answer, as `categoriesOf` (results.routes.ts) reads it: a multiple choice is the
-- combination of options ticked ('1'/'0' per option, in order; decision 035); a single choice is the
-- option's text, a scale its value 1–5 (SCALE_MIN–SCALE_MAX; `3.0` is 3); anything else '__nessuna'
-- (NO_ANSWER_KEY). Null for a question the results do not aggregate.
CREATE FUNCTION survey_result_category(q_type text, q_options jsonb, v jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE q_type
    WHEN 'scelta_multipla' THEN coalesce((
      SELECT string_agg(CASE WHEN jsonb_typeof(v) = 'array' AND jsonb_exists(v, o.value) THEN '1' ELSE '0' END, '' ORDER BY o.ordinality)
        FROM jsonb_array_elements_text(q_options) WITH ORDINALITY AS o), '')
    WHEN 'scelta_singola' THEN CASE WHEN jsonb_typeof(v) = 'string' AND jsonb_exists(q_options, v #>> '{}') THEN v #>> '{}' ELSE '__nessuna' END
    WHEN 'scala' THEN CASE WHEN jsonb_typeof(v) = 'number' THEN (CASE WHEN (v #>> '{}')::numeric IN (1, 2, 3, 4, 5) THEN ((v #>> '{}')::numeric)::int::text ELSE '__nessuna' END) ELSE '__nessuna' END
  END
$$;--> statement-breakpoint
CREATE TYPE result_tally_delta AS (survey_id bigint, participant_group text, region text, school_level text, question_id bigint, category text, response_id bigint, d integer);--> statement-breakpoint
-- The keys of one response placed in an atomic group: its group's row and one per aggregable question.
CREATE FUNCTION result_tally_keys(r survey_responses, p_region text, p_level text, p_d integer)
  RETURNS SETOF result_tally_delta LANGUAGE sql STABLE AS $$
  SELECT r.survey_id, r.participant_group, p_region, p_level, q.id, CASE WHEN q.id = 0 THEN '' ELSE survey_result_category(q.type, q.options, r.answers -> q.id::text) END, r.id, p_d
    FROM (
      SELECT sq.id, sq.type::text AS type, sq.options FROM survey_questions sq
        WHERE sq.survey_id = r.survey_id AND sq.type IN ('scelta_singola', 'scelta_multipla', 'scala')
      UNION ALL SELECT 0::bigint, NULL, NULL
    ) q
$$;--> statement-breakpoint
-- The keys of responses in the atomic group of their plesso as it is now, for those that count now.
CREATE FUNCTION result_tally_placed(rs survey_responses[], p_d integer)
  RETURNS SETOF result_tally_delta LANGUAGE sql STABLE AS $$
  SELECT k.* FROM unnest(rs) r LEFT JOIN school_sites s ON s.id = r.school_site_id
    CROSS JOIN LATERAL result_tally_keys(ROW(r.*)::survey_responses, coalesce(s.region, ''), coalesce(s.school_level::text, ''), p_d) k
    WHERE survey_response_counts(ROW(r.*)::survey_responses)
$$;--> statement-breakpoint
-- The one writer of the tallies: the changes netted per key and response (a response that stays in its
-- key cancels out), added in key order; a key whose first response left gets its first again from the
-- responses of its atomic group (the group's plessi through the index of (survey, plesso)), leaving out
-- a plesso being deleted (`gone_site`); empty keys go.
CREATE FUNCTION result_tallies_apply(deltas result_tally_delta[], gone_site bigint DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  net result_tally_delta[];
BEGIN
  net := ARRAY(
    SELECT ROW(x.survey_id, x.participant_group, x.region, x.school_level, x.question_id, x.category, x.response_id, sum(x.d))::result_tally_delta
      FROM unnest(deltas) x
      GROUP BY x.survey_id, x.participant_group, x.region, x.school_level, x.question_id, x.category, x.response_id HAVING sum(x.d) <> 0);
  IF cardinality(net) = 0 THEN RETURN; END IF;
  INSERT INTO survey_result_tallies AS t (survey_id, participant_group, region, school_level, question_id, category, n, first_id)
    SELECT x.survey_id, x.participant_group, x.region, x.school_level, x.question_id, x.category, sum(x.d), min(x.response_id) FILTER (WHERE x.d > 0)
      FROM unnest(net) x GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT survey_result_tallies_pk
      DO UPDATE SET n = t.n + excluded.n, first_id = least(t.first_id, excluded.first_id);
  -- The first response of a key left it: found again below (unless the key is empty now).
  UPDATE survey_result_tallies t SET first_id = NULL FROM unnest(net) x
    WHERE x.d < 0 AND t.first_id = x.response_id
      AND (t.survey_id, t.participant_group, t.region, t.school_level, t.question_id, t.category)
        = (x.survey_id, x.participant_group, x.region, x.school_level, x.question_id, x.category);
  DELETE FROM survey_result_tallies t USING (SELECT DISTINCT x.survey_id, x.participant_group, x.region, x.school_level, x.question_id, x.category FROM unnest(net) x) k
    WHERE t.n = 0
      AND (t.survey_id, t.participant_group, t.region, t.school_level, t.question_id, t.category)
        = (k.survey_id, k.participant_group, k.region, k.school_level, k.question_id, k.category);
  WITH lost AS (
    SELECT t.survey_id, t.participant_group, t.region, t.school_level, t.question_id, t.category FROM survey_result_tallies t
      JOIN (SELECT DISTINCT x.survey_id, x.participant_group, x.region, x.school_level FROM unnest(net) x WHERE x.d < 0) g
        ON (t.survey_id, t.participant_group, t.region, t.school_level) = (g.survey_id, g.participant_group, g.region, g.school_level)
      WHERE t.first_id IS NULL
  ), groups AS (
    SELECT DISTINCT survey_id, participant_group, region, school_level FROM lost
  ), members AS (
    SELECT g.region, g.school_level, r FROM groups g
      JOIN school_sites s ON s.region = g.region AND s.school_level::text = g.school_level AND s.id IS DISTINCT FROM gone_site
      JOIN survey_responses r ON r.survey_id = g.survey_id AND r.school_site_id = s.id AND r.participant_group = g.participant_group
    UNION ALL
    SELECT g.region, g.school_level, r FROM groups g
      JOIN survey_responses r ON r.survey_id = g.survey_id AND r.school_site_id IS NULL AND r.participant_group = g.participant_group
      WHERE g.region = '' AND g.school_level = ''
  ), found AS (
    SELECT k.survey_id, k.participant_group, k.region, k.school_level, k.question_id, k.category, min(k.response_id) AS first_id
      FROM members m CROSS JOIN LATERAL result_tally_keys(m.r, m.region, m.school_level, 1) k
      WHERE survey_response_counts(m.r)
      GROUP BY 1, 2, 3, 4, 5, 6
  )
  UPDATE survey_result_tallies t SET first_id = f.first_id FROM found f JOIN lost l USING (survey_id, participant_group, region, school_level, question_id, category)
    WHERE (t.survey_id, t.participant_group, t.region, t.school_level, t.question_id, t.category)
      = (f.survey_id, f.participant_group, f.region, f.school_level, f.question_id, f.category);
END $$;--> statement-breakpoint
-- Responses: the new rows that count now are added, the old rows that counted (with the teacher
-- profiles as they are now) taken away; an update hands over only rows whose read columns changed.
CREATE FUNCTION result_tallies_responses(news survey_responses[], olds survey_responses[]) RETURNS void LANGUAGE sql AS $$
  SELECT result_tallies_apply(ARRAY(
    SELECT ROW(k.*)::result_tally_delta FROM result_tally_placed(news, 1) k
    UNION ALL SELECT ROW(k.*)::result_tally_delta FROM result_tally_placed(olds, -1) k))
$$;--> statement-breakpoint
-- Teacher profiles: a participant whose answers start counting (approved) or stop (no longer approved,
-- or the profile gone). Before the statement = the profiles now, without its new rows, with its old.
CREATE FUNCTION result_tallies_teachers(news teacher_profiles[], olds teacher_profiles[]) RETURNS void LANGUAGE sql AS $$
  WITH touched AS (
    SELECT n.user_id FROM unnest(news) n UNION SELECT o.user_id FROM unnest(olds) o
  ), approved_before AS (
    SELECT p.user_id FROM (
      SELECT tp.user_id, tp.review_state FROM teacher_profiles tp
        WHERE tp.user_id IN (SELECT user_id FROM touched) AND tp.id NOT IN (SELECT n.id FROM unnest(news) n)
      UNION ALL SELECT o.user_id, o.review_state FROM unnest(olds) o
    ) p WHERE p.review_state = 'approvata'
  ), approved_now AS (
    SELECT tp.user_id FROM teacher_profiles tp WHERE tp.user_id IN (SELECT user_id FROM touched) AND tp.review_state = 'approvata'
  ), changed AS (
    SELECT user_id, 1 AS d FROM (SELECT user_id FROM approved_now EXCEPT SELECT user_id FROM approved_before) a
    UNION ALL SELECT user_id, -1 FROM (SELECT user_id FROM approved_before EXCEPT SELECT user_id FROM approved_now) b
  )
  SELECT result_tallies_apply(ARRAY(
    SELECT ROW(k.*)::result_tally_delta FROM changed c
      JOIN survey_responses r ON r.user_id = c.user_id AND r.hold IS NULL
      LEFT JOIN school_sites s ON s.id = r.school_site_id
      CROSS JOIN LATERAL result_tally_keys(r, coalesce(s.region, ''), coalesce(s.school_level::text, ''), c.d) k))
$$;--> statement-breakpoint
-- Plessi whose region or level changed: their counted responses move from the old atomic group to the new.
CREATE FUNCTION result_tallies_sites(news school_sites[], olds school_sites[]) RETURNS void LANGUAGE sql AS $$
  WITH moved AS (
    SELECT r, n.region AS to_region, n.school_level::text AS to_level, o.region AS from_region, o.school_level::text AS from_level
      FROM unnest(news) n JOIN unnest(olds) o ON o.id = n.id JOIN survey_responses r ON r.school_site_id = n.id
      WHERE survey_response_counts(r)
  )
  SELECT result_tallies_apply(ARRAY(
    SELECT ROW(k.*)::result_tally_delta FROM moved m CROSS JOIN LATERAL result_tally_keys(m.r, m.to_region, m.to_level, 1) k
    UNION ALL
    SELECT ROW(k.*)::result_tally_delta FROM moved m CROSS JOIN LATERAL result_tally_keys(m.r, m.from_region, m.from_level, -1) k))
$$;--> statement-breakpoint
-- Questions: a new or changed aggregable question is counted over the survey's responses; a removed
-- or changed one loses its keys.
CREATE FUNCTION result_tallies_questions(news survey_questions[], olds survey_questions[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM survey_result_tallies t USING unnest(olds) o WHERE t.survey_id = o.survey_id AND t.question_id = o.id;
  INSERT INTO survey_result_tallies (survey_id, participant_group, region, school_level, question_id, category, n, first_id)
    SELECT r.survey_id, r.participant_group, coalesce(s.region, ''), coalesce(s.school_level::text, ''), q.id,
        survey_result_category(q.type::text, q.options, r.answers -> q.id::text), count(*), min(r.id)
      FROM unnest(news) q JOIN survey_responses r ON r.survey_id = q.survey_id
      LEFT JOIN school_sites s ON s.id = r.school_site_id
      WHERE q.type IN ('scelta_singola', 'scelta_multipla', 'scala') AND survey_response_counts(r)
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT survey_result_tallies_pk DO UPDATE SET n = excluded.n, first_id = excluded.first_id;
$$;--> statement-breakpoint
-- Everything again from the responses (the migration's starting point; after a TRUNCATE of a source).
CREATE FUNCTION result_tallies_rebuild_all() RETURNS void LANGUAGE sql AS $$
  DELETE FROM survey_result_tallies;
  INSERT INTO survey_result_tallies (survey_id, participant_group, region, school_level, question_id, category, n, first_id)
    SELECT r.survey_id, r.participant_group, coalesce(s.region, ''), coalesce(s.school_level::text, ''), q.id,
        CASE WHEN q.id = 0 THEN '' ELSE survey_result_category(q.type, q.options, r.answers -> q.id::text) END, count(*), min(r.id)
      FROM survey_responses r LEFT JOIN school_sites s ON s.id = r.school_site_id
      JOIN (
        SELECT sq.survey_id, sq.id, sq.type::text AS type, sq.options FROM survey_questions sq WHERE sq.type IN ('scelta_singola', 'scelta_multipla', 'scala')
        UNION ALL SELECT sv.id, 0::bigint, NULL, NULL FROM surveys sv
      ) q ON q.survey_id = r.survey_id
      WHERE survey_response_counts(r)
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6;
$$;--> statement-breakpoint
CREATE FUNCTION result_tallies_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'survey_responses' THEN
    IF TG_OP = 'INSERT' THEN PERFORM result_tallies_responses(ARRAY(SELECT ROW(n.*)::survey_responses FROM new_rows n), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM result_tallies_responses('{}', ARRAY(SELECT ROW(o.*)::survey_responses FROM old_rows o));
    ELSE PERFORM result_tallies_responses(
      ARRAY(SELECT ROW(n.*)::survey_responses FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.survey_id, n.school_site_id, n.user_id, n.participant_group, n.answers, n.hold) IS DISTINCT FROM (o.survey_id, o.school_site_id, o.user_id, o.participant_group, o.answers, o.hold)),
      ARRAY(SELECT ROW(o.*)::survey_responses FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.survey_id, n.school_site_id, n.user_id, n.participant_group, n.answers, n.hold) IS DISTINCT FROM (o.survey_id, o.school_site_id, o.user_id, o.participant_group, o.answers, o.hold)));
    END IF;
  ELSIF TG_TABLE_NAME = 'teacher_profiles' THEN
    IF TG_OP = 'INSERT' THEN PERFORM result_tallies_teachers(ARRAY(SELECT ROW(n.*)::teacher_profiles FROM new_rows n WHERE n.review_state = 'approvata'), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM result_tallies_teachers('{}', ARRAY(SELECT ROW(o.*)::teacher_profiles FROM old_rows o WHERE o.review_state = 'approvata'));
    ELSE PERFORM result_tallies_teachers(
      ARRAY(SELECT ROW(n.*)::teacher_profiles FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.user_id, n.review_state = 'approvata') IS DISTINCT FROM (o.user_id, o.review_state = 'approvata')),
      ARRAY(SELECT ROW(o.*)::teacher_profiles FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.user_id, n.review_state = 'approvata') IS DISTINCT FROM (o.user_id, o.review_state = 'approvata')));
    END IF;
  ELSIF TG_TABLE_NAME = 'school_sites' THEN
    PERFORM result_tallies_sites(
      ARRAY(SELECT ROW(n.*)::school_sites FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.region, n.school_level) IS DISTINCT FROM (o.region, o.school_level)),
      ARRAY(SELECT ROW(o.*)::school_sites FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.region, n.school_level) IS DISTINCT FROM (o.region, o.school_level)));
  ELSIF TG_TABLE_NAME = 'survey_questions' THEN
    IF TG_OP = 'INSERT' THEN PERFORM result_tallies_questions(ARRAY(SELECT ROW(n.*)::survey_questions FROM new_rows n), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM result_tallies_questions('{}', ARRAY(SELECT ROW(o.*)::survey_questions FROM old_rows o));
    ELSE PERFORM result_tallies_questions(
      ARRAY(SELECT ROW(n.*)::survey_questions FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.survey_id, n.type, n.options) IS DISTINCT FROM (o.survey_id, o.type, o.options)),
      ARRAY(SELECT ROW(o.*)::survey_questions FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.survey_id, n.type, n.options) IS DISTINCT FROM (o.survey_id, o.type, o.options)));
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Before a plesso goes (while it is there to tell their atomic group), its counted responses move to
-- the group without a plesso; the cascade then sets their plesso to null, an update that, seeing no
-- plesso before or after, changes nothing here. Not an update of the responses: the progress rollup's
-- own trigger (migration 0027) counts them off the plesso already.
CREATE FUNCTION result_tallies_site_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM result_tallies_apply(ARRAY(
    SELECT ROW(k.*)::result_tally_delta FROM survey_responses r
      CROSS JOIN LATERAL result_tally_keys(r, OLD.region, OLD.school_level::text, -1) k
      WHERE r.school_site_id = OLD.id AND survey_response_counts(r)
    UNION ALL
    SELECT ROW(k.*)::result_tally_delta FROM survey_responses r
      CROSS JOIN LATERAL result_tally_keys(r, '', '', 1) k
      WHERE r.school_site_id = OLD.id AND survey_response_counts(r)), OLD.id);
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE FUNCTION result_tallies_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM result_tallies_rebuild_all();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER survey_responses_tallies_insert AFTER INSERT ON survey_responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_responses_tallies_update AFTER UPDATE ON survey_responses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_responses_tallies_delete AFTER DELETE ON survey_responses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_responses_tallies_truncate AFTER TRUNCATE ON survey_responses FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_rebuild();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tallies_insert AFTER INSERT ON teacher_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tallies_update AFTER UPDATE ON teacher_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tallies_delete AFTER DELETE ON teacher_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_tallies_truncate AFTER TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_rebuild();--> statement-breakpoint
CREATE TRIGGER school_sites_tallies_update AFTER UPDATE ON school_sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER school_sites_tallies_gone BEFORE DELETE ON school_sites FOR EACH ROW EXECUTE FUNCTION result_tallies_site_gone();--> statement-breakpoint
CREATE TRIGGER school_sites_tallies_truncate AFTER TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_rebuild();--> statement-breakpoint
CREATE TRIGGER survey_questions_tallies_insert AFTER INSERT ON survey_questions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_questions_tallies_update AFTER UPDATE ON survey_questions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_questions_tallies_delete AFTER DELETE ON survey_questions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_track();--> statement-breakpoint
CREATE TRIGGER survey_questions_tallies_truncate AFTER TRUNCATE ON survey_questions FOR EACH STATEMENT EXECUTE FUNCTION result_tallies_rebuild();--> statement-breakpoint
SELECT result_tallies_rebuild_all();
