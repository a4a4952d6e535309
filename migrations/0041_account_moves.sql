CREATE TABLE `account_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`from_shard` integer NOT NULL,
	`to_shard` integer NOT NULL,
	`invitation_id` text NOT NULL,
	`team_id` text NOT NULL,
	`role` text NOT NULL,
	`state` text DEFAULT 'copying' NOT NULL,
	`pass` integer DEFAULT 0 NOT NULL,
	`after_rowid` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `account_moves_user` ON `account_moves` (`user_id`);--> statement-breakpoint
ALTER TABLE `account_directory` ADD `moving_to` integer;