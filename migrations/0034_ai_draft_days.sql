CREATE TABLE `ai_draft_days` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`drafts` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_draft_days_day` ON `ai_draft_days` (`day`);