CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text,
	`actor_id` text,
	`actor_label` text,
	`subject_user_id` text,
	`subject_label` text,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`target_label` text,
	`details` text,
	`ip` text,
	`country` text,
	`city` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`subject_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_events_team_created` ON `audit_events` (`team_id`,`created_at`,`id`) WHERE "audit_events"."team_id" is not null;--> statement-breakpoint
CREATE INDEX `audit_events_subject_created` ON `audit_events` (`subject_user_id`,`created_at`,`id`) WHERE "audit_events"."subject_user_id" is not null;--> statement-breakpoint
CREATE INDEX `audit_events_actor` ON `audit_events` (`actor_id`) WHERE "audit_events"."actor_id" is not null;--> statement-breakpoint
CREATE INDEX `audit_events_created` ON `audit_events` (`created_at`);