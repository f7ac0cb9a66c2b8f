CREATE TABLE "survey_result_versions" (
	"survey_id" bigint PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "survey_responses_participant_idx" ON "survey_responses" USING btree ("user_id") WHERE "survey_responses"."user_id" is not null;--> statement-breakpoint
-- Decision 033: the version of each survey's counted responses (the results' cache stamp), raised in
-- the writer's transaction by a statement that changes what the results count. A response counts when
-- it is not held and it is anonymous or its participant's teacher profile is approved (results.repository.ts
-- `countedResponse`): a statement raises the version of the surveys of the rows it touched that counted
-- before or after it.
CREATE FUNCTION survey_response_counts(r survey_responses) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT r.hold IS NULL AND (r.user_id IS NULL OR EXISTS (SELECT 1 FROM teacher_profiles tp WHERE tp.user_id = r.user_id AND tp.review_state = 'approvata'))
$$;--> statement-breakpoint
CREATE FUNCTION raise_result_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT r.survey_id, 1 FROM new_rows r WHERE survey_response_counts(r) ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    -- The profile is looked up now (a deleted user's profile may be gone already): held rows never counted.
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT r.survey_id, 1 FROM old_rows r WHERE r.hold IS NULL ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  ELSE
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT survey_id, 1 FROM (
        SELECT r.survey_id FROM new_rows r WHERE survey_response_counts(r)
        UNION ALL SELECT o.survey_id FROM old_rows o WHERE o.hold IS NULL
      ) touched ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER survey_responses_version_insert AFTER INSERT ON survey_responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions();--> statement-breakpoint
CREATE TRIGGER survey_responses_version_update AFTER UPDATE ON survey_responses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions();--> statement-breakpoint
CREATE TRIGGER survey_responses_version_delete AFTER DELETE ON survey_responses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions();--> statement-breakpoint
-- A participant's teacher profile approved, or no longer approved (or gone): the surveys they answered.
CREATE FUNCTION raise_result_versions_of_teachers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT sr.survey_id, 1 FROM new_rows n JOIN survey_responses sr ON sr.user_id = n.user_id WHERE n.review_state = 'approvata' ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT sr.survey_id, 1 FROM old_rows o JOIN survey_responses sr ON sr.user_id = o.user_id WHERE o.review_state = 'approvata' ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  ELSE
    INSERT INTO survey_result_versions (survey_id, version)
      SELECT DISTINCT sr.survey_id, 1 FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN survey_responses sr ON sr.user_id IN (n.user_id, o.user_id)
      WHERE (n.review_state = 'approvata') IS DISTINCT FROM (o.review_state = 'approvata') OR (n.user_id IS DISTINCT FROM o.user_id AND 'approvata' IN (n.review_state, o.review_state))
      ORDER BY 1
      ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER teacher_profiles_version_insert AFTER INSERT ON teacher_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions_of_teachers();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_version_update AFTER UPDATE ON teacher_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions_of_teachers();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_version_delete AFTER DELETE ON teacher_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION raise_result_versions_of_teachers();--> statement-breakpoint
CREATE FUNCTION raise_all_result_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO survey_result_versions (survey_id, version) SELECT id, 1 FROM surveys ORDER BY 1
    ON CONFLICT (survey_id) DO UPDATE SET version = survey_result_versions.version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER survey_responses_version_truncate AFTER TRUNCATE ON survey_responses FOR EACH STATEMENT EXECUTE FUNCTION raise_all_result_versions();--> statement-breakpoint
CREATE TRIGGER teacher_profiles_version_truncate AFTER TRUNCATE ON teacher_profiles FOR EACH STATEMENT EXECUTE FUNCTION raise_all_result_versions();
