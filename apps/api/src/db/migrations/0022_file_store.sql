ALTER TABLE "public_documents" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "public_documents" ADD COLUMN "file_key" text;--> statement-breakpoint
ALTER TABLE "public_documents" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "adhesion_signatures" ADD COLUMN "signed_file_key" text;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "evidence_file_key" text;