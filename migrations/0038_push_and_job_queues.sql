CREATE TABLE `push_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`url` text NOT NULL,
	`tag` text NOT NULL,
	`leads` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` integer,
	`sent_to` text DEFAULT '[]' NOT NULL,
	`dead_at` integer,
	`sent_at` integer,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `push_outbox_status_idx` ON `push_outbox` (`status`,`last_attempt_at`);--> statement-breakpoint
CREATE INDEX `push_outbox_user` ON `push_outbox` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `purge_queued_at` integer;--> statement-breakpoint
-- Written by hand: the threshold on dead push messages (THRESHOLD_DEFAULTS in app/modules/ops/thresholds.ts): any
-- dead push in the last 24 hours warns, ten are critical.
INSERT INTO system_thresholds (metric_name, enabled, warning_threshold, critical_threshold, comparison_operator) VALUES
	('dead_pushes_24h', 1, 0, 10, 'greater_than');
