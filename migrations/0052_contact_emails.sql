CREATE TABLE `contact_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text,
	`direction` text NOT NULL,
	`via` text NOT NULL,
	`from_address` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`reply_key` text,
	`thread_id` text,
	`provider_message_id` text,
	`rfc_message_id` text,
	`outbox_id` text,
	`template_id` text,
	`replies_to` text,
	`activity_id` text,
	`error` text,
	`occurred_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `crm_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`replies_to`) REFERENCES `contact_emails`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`activity_id`) REFERENCES `crm_activities`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `contact_emails_user_time` ON `contact_emails` (`user_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `contact_emails_contact_time` ON `contact_emails` (`contact_id`,`occurred_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `contact_emails_reply_key` ON `contact_emails` (`reply_key`) WHERE "contact_emails"."reply_key" is not null;--> statement-breakpoint
CREATE INDEX `contact_emails_thread` ON `contact_emails` (`user_id`,`thread_id`) WHERE "contact_emails"."thread_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `contact_emails_provider_message` ON `contact_emails` (`user_id`,`via`,`provider_message_id`) WHERE "contact_emails"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX `contact_emails_outbox` ON `contact_emails` (`outbox_id`) WHERE "contact_emails"."outbox_id" is not null;--> statement-breakpoint
CREATE INDEX `contact_emails_template` ON `contact_emails` (`template_id`) WHERE "contact_emails"."template_id" is not null;--> statement-breakpoint
CREATE INDEX `contact_emails_replies_to` ON `contact_emails` (`replies_to`) WHERE "contact_emails"."replies_to" is not null;--> statement-breakpoint
CREATE INDEX `contact_emails_activity` ON `contact_emails` (`activity_id`) WHERE "contact_emails"."activity_id" is not null;--> statement-breakpoint
ALTER TABLE `contacts` ADD `email_bounced_at` integer;