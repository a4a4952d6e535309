CREATE TABLE `team_routing` (
	`team_id` text PRIMARY KEY NOT NULL,
	`business_hours` text,
	`after_hours` text,
	`after_hours_last` text,
	`daily_cap` integer,
	`reassign_minutes` integer,
	`reassign_max` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`after_hours_last`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `team_routing_after_hours_last` ON `team_routing` (`after_hours_last`) WHERE "team_routing"."after_hours_last" is not null;--> statement-breakpoint
CREATE TABLE `team_routing_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`position` integer NOT NULL,
	`sources` text DEFAULT '[]' NOT NULL,
	`min_price_cents` integer,
	`max_price_cents` integer,
	`areas` text DEFAULT '[]' NOT NULL,
	`language` text,
	`property_type` text,
	`target` text NOT NULL,
	`last_assigned_to` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`last_assigned_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `team_routing_rules_team` ON `team_routing_rules` (`team_id`,`position`);--> statement-breakpoint
CREATE INDEX `team_routing_rules_last` ON `team_routing_rules` (`last_assigned_to`) WHERE "team_routing_rules"."last_assigned_to" is not null;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `language` text;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `property_type` text;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `routing` text;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `auto_assigned` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `hops` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `team_leads_auto` ON `team_leads` (`state`,`auto_assigned`,`assigned_at`) WHERE "team_leads"."auto_assigned" = 1;