CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`billing_period` text NOT NULL,
	`with_trial` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `checkout_sessions_user_idx` ON `checkout_sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`stripe_created_at` integer NOT NULL,
	`processed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trial_claims` (
	`email_key` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`stripe_customer_id` text,
	`claimed_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `trial_claims_customer_idx` ON `trial_claims` (`stripe_customer_id`);--> statement-breakpoint
ALTER TABLE `subscribers` ADD `status_changed_at` integer;--> statement-breakpoint
ALTER TABLE `subscribers` ADD `welcome_email_sent_at` integer;