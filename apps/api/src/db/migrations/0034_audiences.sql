ALTER TABLE "survey_questions" ADD COLUMN "participants" text DEFAULT 'entrambi' NOT NULL;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD COLUMN "participant_group" text DEFAULT 'insegnanti' NOT NULL;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "participants" text DEFAULT 'entrambi' NOT NULL;--> statement-breakpoint
-- Decision 046: existing surveys and questions stay for everyone (`entrambi`, the defaults above); an
-- answer through an access code is a code holder's, every other (signed-in participants, demo) a teacher's.
UPDATE "survey_responses" SET "participant_group" = 'codici' WHERE "access_code_id" IS NOT NULL;--> statement-breakpoint
-- The demo surveys' questions about a teacher's own work are for teachers only (issue 35: students and
-- families were asked how long they had worked in a school). Texts and order are unchanged.
UPDATE "survey_questions" SET "participants" = 'insegnanti'
WHERE "survey_id" IN (SELECT "id" FROM "surveys" WHERE "slug" IN ('indagine-pilota-2025', 'indagine-nazionale-2026'))
  AND "label" IN (
    'In quale ordine di scuola insegni?',
    'Quali spazi usi per la didattica, oltre all’aula?',
    'Quanto spesso usi strumenti digitali in classe?',
    'Da quanti anni lavori nella scuola?',
    'Su quali temi vorresti formazione nel prossimo anno?',
    'Come valuti il clima di collaborazione tra colleghi?'
  );
