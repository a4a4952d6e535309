CREATE TABLE `gdpr_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`description` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `gdpr_requests_user_created` ON `gdpr_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gdpr_requests_created` ON `gdpr_requests` (`created_at`);