CREATE INDEX "institutes_name_idx" ON "institutes" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "school_sites_name_idx" ON "school_sites" USING btree ("name","id");