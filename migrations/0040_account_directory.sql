CREATE TABLE `account_directory` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`shard` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_directory_email` ON `account_directory` (`email`);--> statement-breakpoint
CREATE INDEX `account_directory_shard` ON `account_directory` (`shard`);--> statement-breakpoint
-- Hand-written: every account made before the directory lives in this database (shard 0). In the other shards the
-- users table is empty when this runs, so they copy nothing.
INSERT INTO `account_directory` (`user_id`, `email`, `shard`) SELECT `id`, lower(trim(`email`)), 0 FROM `users`;
