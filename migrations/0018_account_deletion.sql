ALTER TABLE `users` ADD `purge_after` integer;--> statement-breakpoint
CREATE INDEX `users_purge_after` ON `users` (`purge_after`) WHERE `purge_after` IS NOT NULL;