DROP INDEX `contacts_user_status`;--> statement-breakpoint
CREATE INDEX `contacts_user_status_activity` ON `contacts` (`user_id`,`status`,`last_activity`);--> statement-breakpoint
CREATE INDEX `contacts_user_source` ON `contacts` (`user_id`,`source`);