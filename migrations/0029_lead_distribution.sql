CREATE TABLE `team_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`source` text NOT NULL,
	`message` text,
	`state` text NOT NULL,
	`offered_until` integer,
	`added_by` text,
	`assigned_to` text,
	`assigned_at` integer,
	`assigned_how` text,
	`contact_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`added_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assigned_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `team_leads_team_state` ON `team_leads` (`team_id`,`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `team_leads_offered` ON `team_leads` (`state`,`offered_until`);--> statement-breakpoint
ALTER TABLE `team_members` ADD `available` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `lead_mode` text DEFAULT 'pond' NOT NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `claim_window_minutes` integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `last_assigned_to` text REFERENCES users(id) ON DELETE SET NULL;