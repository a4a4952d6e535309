CREATE TABLE `commission_plans` (
	`user_id` text PRIMARY KEY NOT NULL,
	`default_rate` real DEFAULT 3 NOT NULL,
	`referral_fee_pct` real DEFAULT 0 NOT NULL,
	`brokerage_split_pct` real DEFAULT 0 NOT NULL,
	`brokerage_cap_cents` integer,
	`cap_year_start` text DEFAULT '01-01' NOT NULL,
	`team_split_pct` real DEFAULT 0 NOT NULL,
	`transaction_fee_cents` integer DEFAULT 0 NOT NULL,
	`eo_fee_cents` integer DEFAULT 0 NOT NULL,
	`franchise_fee_pct` real DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `crm_activities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text,
	`deal_id` text,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`outcome` text,
	`notes` text,
	`meta` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `crm_activities_user_time` ON `crm_activities` (`user_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `crm_activities_deal_time` ON `crm_activities` (`deal_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `crm_activities_contact_time` ON `crm_activities` (`contact_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `crm_config` (
	`user_id` text PRIMARY KEY NOT NULL,
	`deal_stages` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `deals` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text,
	`title` text NOT NULL,
	`stage` text NOT NULL,
	`position` text NOT NULL,
	`deal_value_cents` integer DEFAULT 0 NOT NULL,
	`commission_rate` real NOT NULL,
	`probability` integer NOT NULL,
	`probability_set` integer DEFAULT false NOT NULL,
	`expected_close_date` text,
	`side` text,
	`property_address` text,
	`inspection_date` text,
	`appraisal_date` text,
	`financing_date` text,
	`closing_date` text,
	`closed_date` text,
	`lost_reason` text,
	`notes` text,
	`referral_fee_pct` real,
	`brokerage_split_pct` real,
	`team_split_pct` real,
	`transaction_fee_cents` integer,
	`eo_fee_cents` integer,
	`franchise_fee_pct` real,
	`stage_changed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deals_user_stage_position` ON `deals` (`user_id`,`stage`,`position`);--> statement-breakpoint
CREATE INDEX `deals_user_close` ON `deals` (`user_id`,`expected_close_date`);--> statement-breakpoint
CREATE INDEX `deals_user_closed` ON `deals` (`user_id`,`closed_date`);--> statement-breakpoint
CREATE INDEX `deals_contact` ON `deals` (`contact_id`);