CREATE TABLE `contact_tags` (
	`user_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`tag` text NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_tags_pk` ON `contact_tags` (`contact_id`,`tag`);--> statement-breakpoint
CREATE INDEX `contact_tags_user_tag` ON `contact_tags` (`user_id`,`tag`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`phone` text,
	`email` text,
	`status` text DEFAULT 'cold' NOT NULL,
	`budget_min` integer,
	`budget_max` integer,
	`property_type` text DEFAULT 'house' NOT NULL,
	`bedrooms` integer,
	`bathrooms` integer,
	`location` text,
	`source` text DEFAULT 'other' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`company` text,
	`address` text,
	`timeline` text,
	`notes` text,
	`last_activity` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_id_unique` ON `contacts` (`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_created` ON `contacts` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_name` ON `contacts` (`user_id`,"name" collate nocase,`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_activity` ON `contacts` (`user_id`,`last_activity`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_budget` ON `contacts` (`user_id`,coalesce("budget_max", -1),`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_status` ON `contacts` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `contacts_user_email` ON `contacts` (`user_id`,lower("email"));--> statement-breakpoint
CREATE INDEX `contacts_user_phone` ON `contacts` (`user_id`,`phone`);