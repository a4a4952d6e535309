CREATE TABLE `lead_intake_addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_intake_addresses_key` ON `lead_intake_addresses` (`key`);--> statement-breakpoint
CREATE INDEX `lead_intake_addresses_user` ON `lead_intake_addresses` (`user_id`,`revoked_at`);--> statement-breakpoint
CREATE TABLE `lead_intake_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`address_id` text NOT NULL,
	`contact_id` text,
	`message_id` text,
	`received_at` integer NOT NULL,
	`sent_at` integer,
	`from_address` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`format` text NOT NULL,
	`status` text NOT NULL,
	`lead` text NOT NULL,
	`body` text NOT NULL,
	`auth` text NOT NULL,
	`size` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`address_id`) REFERENCES `lead_intake_addresses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lead_intake_messages_user_status` ON `lead_intake_messages` (`user_id`,`status`,`received_at`);--> statement-breakpoint
CREATE INDEX `lead_intake_messages_user_received` ON `lead_intake_messages` (`user_id`,`received_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `lead_intake_messages_user_message` ON `lead_intake_messages` (`user_id`,`message_id`) WHERE "lead_intake_messages"."message_id" is not null;--> statement-breakpoint
CREATE INDEX `lead_intake_messages_address` ON `lead_intake_messages` (`address_id`);--> statement-breakpoint
CREATE INDEX `lead_intake_messages_contact` ON `lead_intake_messages` (`contact_id`) WHERE "lead_intake_messages"."contact_id" is not null;--> statement-breakpoint
CREATE TABLE `properties` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text,
	`deal_id` text,
	`address` text,
	`mls_number` text,
	`price_cents` integer,
	`url` text,
	`source` text DEFAULT 'other' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `properties_user_created` ON `properties` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `properties_contact` ON `properties` (`contact_id`) WHERE "properties"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX `properties_deal` ON `properties` (`deal_id`) WHERE "properties"."deal_id" is not null;