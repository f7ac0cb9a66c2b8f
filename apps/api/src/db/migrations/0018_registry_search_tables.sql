CREATE TABLE "institute_search" (
	"id" bigint PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"length" integer NOT NULL,
	"ministry_code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_site_search" (
	"id" bigint PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"length" integer NOT NULL,
	"ministry_code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "institute_search" ADD CONSTRAINT "institute_search_id_institutes_id_fk" FOREIGN KEY ("id") REFERENCES "public"."institutes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_site_search" ADD CONSTRAINT "school_site_search_id_school_sites_id_fk" FOREIGN KEY ("id") REFERENCES "public"."school_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The search rows follow their registry rows in the same statement (decision 027): a statement trigger
-- copies every inserted row at once (the registry seed inserts thousands per statement), a row trigger
-- copies a row whose name, comune or code changed; a deleted row takes its search row with it (the
-- foreign key's cascade). TG_ARGV[0] names the search table.
CREATE FUNCTION registry_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO %I (id, text, length, ministry_code, name) SELECT id, '' '' || search_text || '' '', length(search_text), ministry_code, name FROM new_rows', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION registry_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('UPDATE %I SET text = '' '' || $1 || '' '', length = length($1), ministry_code = $2, name = $3 WHERE id = $4', TG_ARGV[0])
    USING NEW.search_text, NEW.ministry_code, NEW.name, NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER institutes_search_insert AFTER INSERT ON institutes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION registry_search_insert('institute_search');--> statement-breakpoint
CREATE TRIGGER institutes_search_update AFTER UPDATE OF name, municipality_name, ministry_code ON institutes FOR EACH ROW EXECUTE FUNCTION registry_search_update('institute_search');--> statement-breakpoint
CREATE TRIGGER school_sites_search_insert AFTER INSERT ON school_sites REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION registry_search_insert('school_site_search');--> statement-breakpoint
CREATE TRIGGER school_sites_search_update AFTER UPDATE OF name, municipality_name, ministry_code ON school_sites FOR EACH ROW EXECUTE FUNCTION registry_search_update('school_site_search');--> statement-breakpoint
INSERT INTO institute_search (id, text, length, ministry_code, name) SELECT id, ' ' || search_text || ' ', length(search_text), ministry_code, name FROM institutes;--> statement-breakpoint
INSERT INTO school_site_search (id, text, length, ministry_code, name) SELECT id, ' ' || search_text || ' ', length(search_text), ministry_code, name FROM school_sites;--> statement-breakpoint
-- The indexes after the copy: built in one pass, rather than filled row by row into GIN's pending list
-- (a search of a long pending list is slow, and the planner then prefers reading the whole table).
CREATE INDEX "institute_search_trgm_idx" ON "institute_search" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "school_site_search_trgm_idx" ON "school_site_search" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
ANALYZE institute_search;--> statement-breakpoint
ANALYZE school_site_search;
