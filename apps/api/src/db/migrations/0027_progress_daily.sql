CREATE TABLE "progress_daily" (
	"day" date NOT NULL,
	"region" text NOT NULL,
	"metric" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "progress_daily_day_region_metric_pk" PRIMARY KEY("day","region","metric")
);
--> statement-breakpoint
-- Decision 033 (progress): the dated events of /api/progress per day (Europe/Rome), region and figure,
-- kept equal to grouping the records themselves. Each source table has one statement trigger per event
-- (with transition tables) that hands its changed rows to a delta function as arrays: the function adds
-- the new rows' events and subtracts the old rows', each joined with the other tables as they are now.
-- A plesso or an institute whose region changes moves the events that take their region from it; a
-- deleted plesso or institute first takes away (BEFORE DELETE, while everything is still there) what
-- the cascade's own triggers can no longer see. Keys are written in order (no deadlock between writers).
CREATE FUNCTION progress_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (at AT TIME ZONE 'Europe/Rome')::date
$$;--> statement-breakpoint
CREATE TYPE progress_delta AS (day date, region text, metric text, d bigint);--> statement-breakpoint
-- The one writer of the rollup: the deltas summed per key, zero sums skipped, keys in order (no
-- deadlock between two writers), each added to its row in the writer's transaction.
CREATE FUNCTION progress_apply(deltas progress_delta[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO progress_daily (day, region, metric, n)
    SELECT day, region, metric, sum(d) FROM unnest(deltas) GROUP BY day, region, metric HAVING sum(d) <> 0 ORDER BY day, region, metric
    ON CONFLICT (day, region, metric) DO UPDATE SET n = progress_daily.n + excluded.n
$$;--> statement-breakpoint
-- Events of the plessi given, per plesso: what takes its region from the plesso (teachers registered and
-- approved, visits done, survey responses); `optional` says whether the event stays, with region '',
-- when the plesso is gone (a left join in the reference query) or disappears with it (visits).
CREATE FUNCTION progress_site_events(site_ids bigint[])
  RETURNS TABLE (site_id bigint, day date, metric text, optional boolean) LANGUAGE sql STABLE AS $$
  SELECT tp.school_site_id, progress_day(tp.created_at), 'teachersRegistered', true
    FROM teacher_profiles tp WHERE tp.school_site_id = ANY (site_ids)
  UNION ALL
  SELECT tp.school_site_id, progress_day(r.decided_at), 'teachersApproved', true
    FROM teacher_profiles tp JOIN reviews r ON r.subject_id = tp.id AND r.type = 'insegnanti' AND r.state = 'approvata' AND r.decided_at IS NOT NULL
    WHERE tp.school_site_id = ANY (site_ids)
  UNION ALL
  SELECT v.school_site_id, progress_day(coalesce(v.reported_at, v.scheduled_at)), 'visitsDone', false
    FROM visits v WHERE v.school_site_id = ANY (site_ids) AND v.state = 'svolta'
  UNION ALL
  SELECT sr.school_site_id, progress_day(sr.submitted_at), 'surveyResponses', true
    FROM survey_responses sr WHERE sr.school_site_id = ANY (site_ids) AND sr.submitted_at IS NOT NULL
$$;--> statement-breakpoint
CREATE FUNCTION progress_transitions_delta(news institute_adhesion_transitions[], olds institute_adhesion_transitions[])
  RETURNS void LANGUAGE sql AS $$
  WITH affected AS (
    SELECT t.institute_id FROM unnest(news) t WHERE t.to_state = 'iscritto'
    UNION SELECT t.institute_id FROM unnest(olds) t WHERE t.to_state = 'iscritto'
  ), enrolled_now AS (
    SELECT t.institute_id, min(t.at) AS at FROM institute_adhesion_transitions t
      WHERE t.to_state = 'iscritto' AND t.institute_id IN (SELECT institute_id FROM affected) GROUP BY t.institute_id
  ), enrolled_before AS (
    SELECT x.institute_id, min(x.at) AS at FROM (
      SELECT t.institute_id, t.at FROM institute_adhesion_transitions t
        WHERE t.to_state = 'iscritto' AND t.institute_id IN (SELECT institute_id FROM affected)
          AND t.id NOT IN (SELECT n.id FROM unnest(news) n)
      UNION ALL SELECT o.institute_id, o.at FROM unnest(olds) o WHERE o.to_state = 'iscritto'
    ) x GROUP BY x.institute_id
  ), delta AS (
    SELECT progress_day(t.at) AS day, coalesce(i.region, '') AS region, t.to_state AS metric, 1 AS d
      FROM unnest(news) t JOIN institutes i ON i.id = t.institute_id
      WHERE t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
    UNION ALL
    SELECT progress_day(t.at), coalesce(i.region, ''), t.to_state, -1
      FROM unnest(olds) t JOIN institutes i ON i.id = t.institute_id
      WHERE t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
    UNION ALL
    SELECT progress_day(e.at), coalesce(s.region, ''), 'participatingSites', 1
      FROM enrolled_now e JOIN institutes i ON i.id = e.institute_id JOIN school_sites s ON s.institute_id = e.institute_id AND s.participating
    UNION ALL
    SELECT progress_day(e.at), coalesce(s.region, ''), 'participatingSites', -1
      FROM enrolled_before e JOIN institutes i ON i.id = e.institute_id JOIN school_sites s ON s.institute_id = e.institute_id AND s.participating
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
CREATE FUNCTION progress_sites_delta(news school_sites[], olds school_sites[])
  RETURNS void LANGUAGE sql AS $$
  WITH moved AS (
    SELECT n.id, coalesce(n.region, '') AS to_region, coalesce(o.region, '') AS from_region
      FROM unnest(news) n JOIN unnest(olds) o ON o.id = n.id WHERE n.region IS DISTINCT FROM o.region
  ), delta AS (
    SELECT progress_day(e.at) AS day, coalesce(s.region, '') AS region, 'participatingSites' AS metric, 1 AS d
      FROM unnest(news) s JOIN institutes i ON i.id = s.institute_id
      JOIN LATERAL (SELECT min(t.at) AS at FROM institute_adhesion_transitions t WHERE t.institute_id = s.institute_id AND t.to_state = 'iscritto') e ON e.at IS NOT NULL
      WHERE s.participating
    UNION ALL
    SELECT progress_day(e.at), coalesce(s.region, ''), 'participatingSites', -1
      FROM unnest(olds) s JOIN institutes i ON i.id = s.institute_id
      JOIN LATERAL (SELECT min(t.at) AS at FROM institute_adhesion_transitions t WHERE t.institute_id = s.institute_id AND t.to_state = 'iscritto') e ON e.at IS NOT NULL
      WHERE s.participating
    UNION ALL
    SELECT ev.day, m.to_region, ev.metric, 1 FROM progress_site_events(ARRAY(SELECT id FROM moved)) ev JOIN moved m ON m.id = ev.site_id
    UNION ALL
    SELECT ev.day, m.from_region, ev.metric, -1 FROM progress_site_events(ARRAY(SELECT id FROM moved)) ev JOIN moved m ON m.id = ev.site_id
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
CREATE FUNCTION progress_teachers_delta(news teacher_profiles[], olds teacher_profiles[])
  RETURNS void LANGUAGE sql AS $$
  WITH rows AS (
    SELECT tp.id, tp.school_site_id, tp.created_at, 1 AS d FROM unnest(news) tp
    UNION ALL SELECT tp.id, tp.school_site_id, tp.created_at, -1 FROM unnest(olds) tp
  ), delta AS (
    SELECT progress_day(tp.created_at) AS day, coalesce(s.region, '') AS region, 'teachersRegistered' AS metric, tp.d
      FROM rows tp LEFT JOIN school_sites s ON s.id = tp.school_site_id
    UNION ALL
    SELECT progress_day(r.decided_at), coalesce(s.region, ''), 'teachersApproved', tp.d
      FROM rows tp JOIN reviews r ON r.subject_id = tp.id AND r.type = 'insegnanti' AND r.state = 'approvata' AND r.decided_at IS NOT NULL
      LEFT JOIN school_sites s ON s.id = tp.school_site_id
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
CREATE FUNCTION progress_reviews_delta(news reviews[], olds reviews[])
  RETURNS void LANGUAGE sql AS $$
  WITH rows AS (
    SELECT r.subject_id, r.decided_at, 1 AS d FROM unnest(news) r WHERE r.type = 'insegnanti' AND r.state = 'approvata' AND r.decided_at IS NOT NULL
    UNION ALL SELECT r.subject_id, r.decided_at, -1 FROM unnest(olds) r WHERE r.type = 'insegnanti' AND r.state = 'approvata' AND r.decided_at IS NOT NULL
  ), delta AS (
    SELECT progress_day(r.decided_at) AS day, coalesce(s.region, '') AS region, 'teachersApproved' AS metric, r.d
      FROM rows r JOIN teacher_profiles tp ON tp.id = r.subject_id LEFT JOIN school_sites s ON s.id = tp.school_site_id
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
CREATE FUNCTION progress_visits_delta(news visits[], olds visits[])
  RETURNS void LANGUAGE sql AS $$
  WITH rows AS (
    SELECT v.school_site_id, coalesce(v.reported_at, v.scheduled_at) AS at, 1 AS d FROM unnest(news) v WHERE v.state = 'svolta'
    UNION ALL SELECT v.school_site_id, coalesce(v.reported_at, v.scheduled_at), -1 FROM unnest(olds) v WHERE v.state = 'svolta'
  ), delta AS (
    SELECT progress_day(v.at) AS day, coalesce(s.region, '') AS region, 'visitsDone' AS metric, v.d
      FROM rows v JOIN school_sites s ON s.id = v.school_site_id
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
CREATE FUNCTION progress_responses_delta(news survey_responses[], olds survey_responses[])
  RETURNS void LANGUAGE sql AS $$
  WITH rows AS (
    SELECT r.school_site_id, r.submitted_at, 1 AS d FROM unnest(news) r WHERE r.submitted_at IS NOT NULL
    UNION ALL SELECT r.school_site_id, r.submitted_at, -1 FROM unnest(olds) r WHERE r.submitted_at IS NOT NULL
  ), delta AS (
    SELECT progress_day(r.submitted_at) AS day, coalesce(s.region, '') AS region, 'surveyResponses' AS metric, r.d
      FROM rows r LEFT JOIN school_sites s ON s.id = r.school_site_id
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
-- An institute whose region changes moves its transitions (its plessi keep their own region).
CREATE FUNCTION progress_institutes_delta(news institutes[], olds institutes[])
  RETURNS void LANGUAGE sql AS $$
  WITH moved AS (
    SELECT n.id, coalesce(n.region, '') AS to_region, coalesce(o.region, '') AS from_region
      FROM unnest(news) n JOIN unnest(olds) o ON o.id = n.id WHERE n.region IS DISTINCT FROM o.region
  ), delta AS (
    SELECT progress_day(t.at) AS day, m.to_region AS region, t.to_state AS metric, 1 AS d
      FROM moved m JOIN institute_adhesion_transitions t ON t.institute_id = m.id AND t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
    UNION ALL
    SELECT progress_day(t.at), m.from_region, t.to_state, -1
      FROM moved m JOIN institute_adhesion_transitions t ON t.institute_id = m.id AND t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
  )
  SELECT progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM delta))
$$;--> statement-breakpoint
-- The statement triggers: an update hands over only the rows whose counted columns changed.
CREATE FUNCTION progress_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'institute_adhesion_transitions' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_transitions_delta(ARRAY(SELECT ROW(n.*)::institute_adhesion_transitions FROM new_rows n), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_transitions_delta('{}', ARRAY(SELECT ROW(o.*)::institute_adhesion_transitions FROM old_rows o));
    ELSE PERFORM progress_transitions_delta(
      ARRAY(SELECT ROW(n.*)::institute_adhesion_transitions FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.institute_id, n.to_state, n.at) IS DISTINCT FROM (o.institute_id, o.to_state, o.at)),
      ARRAY(SELECT ROW(o.*)::institute_adhesion_transitions FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.institute_id, n.to_state, n.at) IS DISTINCT FROM (o.institute_id, o.to_state, o.at)));
    END IF;
  ELSIF TG_TABLE_NAME = 'school_sites' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_sites_delta(ARRAY(SELECT ROW(n.*)::school_sites FROM new_rows n WHERE n.participating), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_sites_delta('{}', ARRAY(SELECT ROW(o.*)::school_sites FROM old_rows o WHERE o.participating));
    ELSE PERFORM progress_sites_delta(
      ARRAY(SELECT ROW(n.*)::school_sites FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.institute_id, n.region, n.participating) IS DISTINCT FROM (o.institute_id, o.region, o.participating)),
      ARRAY(SELECT ROW(o.*)::school_sites FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.institute_id, n.region, n.participating) IS DISTINCT FROM (o.institute_id, o.region, o.participating)));
    END IF;
  ELSIF TG_TABLE_NAME = 'teacher_profiles' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_teachers_delta(ARRAY(SELECT ROW(n.*)::teacher_profiles FROM new_rows n), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_teachers_delta('{}', ARRAY(SELECT ROW(o.*)::teacher_profiles FROM old_rows o));
    ELSE PERFORM progress_teachers_delta(
      ARRAY(SELECT ROW(n.*)::teacher_profiles FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.created_at) IS DISTINCT FROM (o.school_site_id, o.created_at)),
      ARRAY(SELECT ROW(o.*)::teacher_profiles FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.created_at) IS DISTINCT FROM (o.school_site_id, o.created_at)));
    END IF;
  ELSIF TG_TABLE_NAME = 'reviews' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_reviews_delta(ARRAY(SELECT ROW(n.*)::reviews FROM new_rows n WHERE n.type = 'insegnanti'), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_reviews_delta('{}', ARRAY(SELECT ROW(o.*)::reviews FROM old_rows o WHERE o.type = 'insegnanti'));
    ELSE PERFORM progress_reviews_delta(
      ARRAY(SELECT ROW(n.*)::reviews FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.type, n.subject_id, n.state, n.decided_at) IS DISTINCT FROM (o.type, o.subject_id, o.state, o.decided_at)),
      ARRAY(SELECT ROW(o.*)::reviews FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.type, n.subject_id, n.state, n.decided_at) IS DISTINCT FROM (o.type, o.subject_id, o.state, o.decided_at)));
    END IF;
  ELSIF TG_TABLE_NAME = 'visits' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_visits_delta(ARRAY(SELECT ROW(n.*)::visits FROM new_rows n WHERE n.state = 'svolta'), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_visits_delta('{}', ARRAY(SELECT ROW(o.*)::visits FROM old_rows o WHERE o.state = 'svolta'));
    ELSE PERFORM progress_visits_delta(
      ARRAY(SELECT ROW(n.*)::visits FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.state, n.reported_at, n.scheduled_at) IS DISTINCT FROM (o.school_site_id, o.state, o.reported_at, o.scheduled_at)),
      ARRAY(SELECT ROW(o.*)::visits FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.state, n.reported_at, n.scheduled_at) IS DISTINCT FROM (o.school_site_id, o.state, o.reported_at, o.scheduled_at)));
    END IF;
  ELSIF TG_TABLE_NAME = 'survey_responses' THEN
    IF TG_OP = 'INSERT' THEN PERFORM progress_responses_delta(ARRAY(SELECT ROW(n.*)::survey_responses FROM new_rows n), '{}');
    ELSIF TG_OP = 'DELETE' THEN PERFORM progress_responses_delta('{}', ARRAY(SELECT ROW(o.*)::survey_responses FROM old_rows o));
    ELSE PERFORM progress_responses_delta(
      ARRAY(SELECT ROW(n.*)::survey_responses FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.submitted_at) IS DISTINCT FROM (o.school_site_id, o.submitted_at)),
      ARRAY(SELECT ROW(o.*)::survey_responses FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.school_site_id, n.submitted_at) IS DISTINCT FROM (o.school_site_id, o.submitted_at)));
    END IF;
  ELSIF TG_TABLE_NAME = 'institutes' AND TG_OP = 'UPDATE' THEN
    PERFORM progress_institutes_delta(
      ARRAY(SELECT ROW(n.*)::institutes FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.region IS DISTINCT FROM o.region),
      ARRAY(SELECT ROW(o.*)::institutes FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.region IS DISTINCT FROM o.region));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Before a plesso goes: its events that keep no region once it is gone (or go with it, visits).
CREATE FUNCTION progress_site_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM (
      SELECT ev.day, coalesce(OLD.region, '') AS region, ev.metric, -1 AS d FROM progress_site_events(ARRAY[OLD.id]) ev
      UNION ALL SELECT ev.day, '', ev.metric, 1 FROM progress_site_events(ARRAY[OLD.id]) ev WHERE ev.optional
    ) c));
  RETURN OLD;
END $$;--> statement-breakpoint
-- Before an institute goes: its transitions and its plessi's participation (the cascade's triggers see
-- no institute any more, so they count nothing for it).
CREATE FUNCTION progress_institute_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_apply(ARRAY(SELECT ROW(day, region, metric, d)::progress_delta FROM (
      SELECT progress_day(t.at) AS day, coalesce(OLD.region, '') AS region, t.to_state AS metric, -1 AS d
        FROM institute_adhesion_transitions t WHERE t.institute_id = OLD.id AND t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
      UNION ALL
      SELECT progress_day(e.at), coalesce(s.region, ''), 'participatingSites', -1
        FROM (SELECT min(t.at) AS at FROM institute_adhesion_transitions t WHERE t.institute_id = OLD.id AND t.to_state = 'iscritto') e
        JOIN school_sites s ON s.institute_id = OLD.id AND s.participating WHERE e.at IS NOT NULL
    ) c));
  RETURN OLD;
END $$;--> statement-breakpoint
-- Everything again from the records (the migration's starting point; after a TRUNCATE of a source).
CREATE FUNCTION progress_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_rebuild_all();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION progress_rebuild_all() RETURNS void LANGUAGE sql AS $$
  DELETE FROM progress_daily;
  INSERT INTO progress_daily (day, region, metric, n)
    SELECT day, region, metric, count(*) FROM (
      SELECT progress_day(t.at) AS day, coalesce(i.region, '') AS region, t.to_state AS metric
        FROM institute_adhesion_transitions t JOIN institutes i ON i.id = t.institute_id
        WHERE t.to_state IN ('iscritto', 'adesione_firmata', 'attivo', 'ritirato')
      UNION ALL
      SELECT progress_day(e.at), coalesce(s.region, ''), 'participatingSites'
        FROM (SELECT institute_id, min(at) AS at FROM institute_adhesion_transitions WHERE to_state = 'iscritto' GROUP BY institute_id) e
        JOIN institutes i ON i.id = e.institute_id JOIN school_sites s ON s.institute_id = e.institute_id AND s.participating
      UNION ALL
      SELECT progress_day(tp.created_at), coalesce(s.region, ''), 'teachersRegistered'
        FROM teacher_profiles tp LEFT JOIN school_sites s ON s.id = tp.school_site_id
      UNION ALL
      SELECT progress_day(r.decided_at), coalesce(s.region, ''), 'teachersApproved'
        FROM reviews r JOIN teacher_profiles tp ON tp.id = r.subject_id LEFT JOIN school_sites s ON s.id = tp.school_site_id
        WHERE r.type = 'insegnanti' AND r.state = 'approvata' AND r.decided_at IS NOT NULL
      UNION ALL
      SELECT progress_day(coalesce(v.reported_at, v.scheduled_at)), coalesce(s.region, ''), 'visitsDone'
        FROM visits v JOIN school_sites s ON s.id = v.school_site_id WHERE v.state = 'svolta'
      UNION ALL
      SELECT progress_day(sr.submitted_at), coalesce(s.region, ''), 'surveyResponses'
        FROM survey_responses sr LEFT JOIN school_sites s ON s.id = sr.school_site_id WHERE sr.submitted_at IS NOT NULL
    ) c GROUP BY day, region, metric ORDER BY day, region, metric
$$;--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON institute_adhesion_transitions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON institute_adhesion_transitions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON institute_adhesion_transitions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON institute_adhesion_transitions FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON school_sites REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON school_sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON school_sites REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_gone BEFORE DELETE ON school_sites FOR EACH ROW EXECUTE FUNCTION progress_site_gone();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON school_sites FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON teacher_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON teacher_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON teacher_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON reviews FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON visits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON visits FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_insert AFTER INSERT ON survey_responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON survey_responses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_delete AFTER DELETE ON survey_responses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON survey_responses FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
CREATE TRIGGER progress_update AFTER UPDATE ON institutes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION progress_track();--> statement-breakpoint
CREATE TRIGGER progress_gone BEFORE DELETE ON institutes FOR EACH ROW EXECUTE FUNCTION progress_institute_gone();--> statement-breakpoint
CREATE TRIGGER progress_truncate AFTER TRUNCATE ON institutes FOR EACH STATEMENT EXECUTE FUNCTION progress_rebuild();--> statement-breakpoint
-- The events already there (the triggers keep them from now on: the migration runs alone, under the migration lock).
SELECT progress_rebuild_all();
