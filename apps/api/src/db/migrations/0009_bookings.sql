CREATE TABLE "booking_slots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "booking_slots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"place" text,
	"online_url" text,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by_user_id" bigint,
	"updated_by_user_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "booking_slots_capacity_check" CHECK ("booking_slots"."capacity" > 0 and "booking_slots"."booked" >= 0 and "booking_slots"."booked" <= "booking_slots"."capacity"),
	CONSTRAINT "booking_slots_time_check" CHECK ("booking_slots"."ends_at" > "booking_slots"."starts_at"),
	CONSTRAINT "booking_slots_where_check" CHECK ("booking_slots"."place" is not null or "booking_slots"."online_url" is not null)
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bookings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slot_id" bigint NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"institute" text,
	"state" text DEFAULT 'confermata' NOT NULL,
	"cancel_token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "bookings_cancel_token_hash_unique" UNIQUE("cancel_token_hash")
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "booking_slots" ADD CONSTRAINT "booking_slots_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_slots" ADD CONSTRAINT "booking_slots_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_slot_id_booking_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."booking_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_slots_starts_idx" ON "booking_slots" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "bookings_slot_idx" ON "bookings" USING btree ("slot_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_slot_email_confirmed_idx" ON "bookings" USING btree ("slot_id",lower("email")) WHERE "bookings"."state" = 'confermata';