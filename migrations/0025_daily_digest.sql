ALTER TABLE `user_preferences` ADD `digest_email` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `user_preferences` ADD `digest_sent_on` text;--> statement-breakpoint
ALTER TABLE `user_preferences` ADD `digest_origin` text;