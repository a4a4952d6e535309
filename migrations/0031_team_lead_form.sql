ALTER TABLE `teams` ADD `lead_form_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `teams_lead_form_key` ON `teams` (`lead_form_key`);