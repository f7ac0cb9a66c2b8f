CREATE TABLE "detector_device_queues" (
	"user_id" bigint NOT NULL,
	"device_id" uuid NOT NULL,
	"unsent" integer NOT NULL,
	"oldest_unsent_at" timestamp with time zone,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "detector_device_queues_user_id_device_id_pk" PRIMARY KEY("user_id","device_id"),
	CONSTRAINT "detector_device_queues_unsent_check" CHECK ("detector_device_queues"."unsent" >= 0)
);
--> statement-breakpoint
ALTER TABLE "detector_device_queues" ADD CONSTRAINT "detector_device_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;