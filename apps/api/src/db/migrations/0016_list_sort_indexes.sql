CREATE INDEX "institutes_municipality_idx" ON "institutes" USING btree ("municipality_name","id");--> statement-breakpoint
CREATE INDEX "institutes_province_idx" ON "institutes" USING btree ("province","id");--> statement-breakpoint
CREATE INDEX "school_sites_municipality_idx" ON "school_sites" USING btree ("municipality_name","id");--> statement-breakpoint
CREATE INDEX "school_sites_province_idx" ON "school_sites" USING btree ("province","id");