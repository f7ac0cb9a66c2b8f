-- Decision 050 (amended): a user deleted with an approved profile and counted responses left the
-- results' tallies one too high. The foreign keys' actions of one statement all run before any of the
-- statement triggers they cause (PostgreSQL queues them to the end of the outer statement): the
-- profile's delete trigger then found no responses of the user (already set to no user) and the
-- responses' update trigger found no profile (already gone), so the responses' old keys were never
-- taken away while the new ones (a response without a user counts) were added. Before a user goes,
-- their responses are detached by a statement of their own, whose triggers run at once while the
-- profile is still there; the foreign key's `SET NULL` then finds nothing to change.
CREATE FUNCTION survey_responses_detach_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE survey_responses SET user_id = NULL WHERE user_id = OLD.id;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER users_detach_survey_responses BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION survey_responses_detach_user();
