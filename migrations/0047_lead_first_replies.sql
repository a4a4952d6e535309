CREATE TABLE `lead_first_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`source` text NOT NULL,
	`property` text,
	`due_at` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`outbox_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_first_replies_contact` ON `lead_first_replies` (`contact_id`);--> statement-breakpoint
CREATE INDEX `lead_first_replies_due` ON `lead_first_replies` (`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `lead_first_replies_user` ON `lead_first_replies` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `lead_reply_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_reply_templates_user_source` ON `lead_reply_templates` (`user_id`,`source`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `email_opt_out_at` integer;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `from_name` text;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `reply_to` text;--> statement-breakpoint
ALTER TABLE `user_preferences` ADD `reply_from_minute` integer DEFAULT 480 NOT NULL;--> statement-breakpoint
ALTER TABLE `user_preferences` ADD `reply_until_minute` integer DEFAULT 1260 NOT NULL;