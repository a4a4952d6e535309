CREATE TABLE `backup_restores` (
	`id` text PRIMARY KEY NOT NULL,
	`backup_id` text NOT NULL,
	`user_id` text,
	`requested_by` text,
	`safety_backup_id` text,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`row_count` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`error_message` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `backup_restores_started` ON `backup_restores` (`started_at`);--> statement-breakpoint
CREATE TABLE `restore_rows` (
	`restore_id` text NOT NULL,
	`tbl` text NOT NULL,
	`seq` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`restore_id`) REFERENCES `backup_restores`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `restore_rows_restore_table` ON `restore_rows` (`restore_id`,`tbl`,`seq`);--> statement-breakpoint
-- A safety copy names its agent; the account purge unsigns it (ON DELETE set null, like the tables above).
ALTER TABLE `backups` ADD `user_id` text REFERENCES users(id) ON DELETE set null;