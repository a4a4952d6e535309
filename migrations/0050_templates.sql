CREATE TABLE `crm_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`team_id` text,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`starter` text,
	`copied_from` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `crm_templates_user_kind` ON `crm_templates` (`user_id`,`kind`,`name`);--> statement-breakpoint
CREATE INDEX `crm_templates_team` ON `crm_templates` (`team_id`,`kind`,`name`) WHERE "crm_templates"."team_id" is not null;--> statement-breakpoint
ALTER TABLE `agent_profiles` ADD `signature` text;--> statement-breakpoint
ALTER TABLE `agent_profiles` ADD `postal_address` text;