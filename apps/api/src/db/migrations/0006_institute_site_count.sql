ALTER TABLE "institutes" ADD COLUMN "school_site_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "institutes_site_count_idx" ON "institutes" USING btree ("school_site_count","id");--> statement-breakpoint
-- Kept in the same statement as every insert, delete or move of plessi (statement triggers with
-- transition tables: one UPDATE per statement, however many rows), so it never drifts.
CREATE FUNCTION institutes_recount_school_sites() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE institutes i SET school_site_count = i.school_site_count + n.c
      FROM (SELECT institute_id, count(*)::int AS c FROM new_rows GROUP BY institute_id) n WHERE i.id = n.institute_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE institutes i SET school_site_count = i.school_site_count - o.c
      FROM (SELECT institute_id, count(*)::int AS c FROM old_rows GROUP BY institute_id) o WHERE i.id = o.institute_id;
  ELSE
    -- Only plessi moved to another institute change the counts.
    UPDATE institutes i SET school_site_count = i.school_site_count + d.c
      FROM (
        SELECT institute_id, sum(c)::int AS c FROM (
          SELECT n.institute_id, 1 AS c FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.institute_id <> n.institute_id
          UNION ALL
          SELECT o.institute_id, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.institute_id <> n.institute_id
        ) moved GROUP BY institute_id
      ) d WHERE i.id = d.institute_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER school_sites_count_insert AFTER INSERT ON school_sites REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION institutes_recount_school_sites();--> statement-breakpoint
CREATE TRIGGER school_sites_count_delete AFTER DELETE ON school_sites REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION institutes_recount_school_sites();--> statement-breakpoint
CREATE TRIGGER school_sites_count_update AFTER UPDATE ON school_sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION institutes_recount_school_sites();--> statement-breakpoint
UPDATE institutes i SET school_site_count = (SELECT count(*) FROM school_sites s WHERE s.institute_id = i.id);
