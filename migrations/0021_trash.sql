-- The 30-day trash (ADR 0028): a deleted contact, deal or task moves here, out of the live tables, with
-- the rows deleted along with it (one trash_rows row each, raw JSON) and the ids of rows the delete unlinked.
-- trash_items_deleted serves the cron's purge of items older than 30 days, across agents.
CREATE TABLE `trash_items` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`item_id` text NOT NULL,
	`title` text NOT NULL,
	`deleted_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trash_items_user_deleted` ON `trash_items` (`user_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `trash_items_deleted` ON `trash_items` (`deleted_at`);--> statement-breakpoint
CREATE TABLE `trash_rows` (
	`trash_id` text NOT NULL,
	`user_id` text NOT NULL,
	`seq` integer NOT NULL,
	`tbl` text NOT NULL,
	`role` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`trash_id`) REFERENCES `trash_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trash_rows_trash` ON `trash_rows` (`trash_id`,`seq`);