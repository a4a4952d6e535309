-- E-mail goes through a Queue (ADR 0056). drizzle-kit proposed rebuilding email_outbox (its copy step read columns
-- the old table does not have), so the same change is written here as plain column additions, which keep every row.
ALTER TABLE `email_outbox` ADD `headers` text;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `last_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `dead_at` integer;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `sent_again` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `email_outbox_status_idx` ON `email_outbox` (`status`,`last_attempt_at`);--> statement-breakpoint
-- Written by hand: e-mails the provider refused before the queue existed stayed "failed" for good; they are dead
-- letters now, listed in the Operations Center where an admin can send them again.
UPDATE `email_outbox` SET `status` = 'dead', `attempts` = 1, `last_attempt_at` = `created_at`, `dead_at` = `created_at` WHERE `status` = 'failed';--> statement-breakpoint
-- The threshold on dead e-mails (THRESHOLD_DEFAULTS in app/modules/ops/thresholds.ts): any dead e-mail in the last
-- 24 hours warns, ten are critical.
INSERT INTO system_thresholds (metric_name, enabled, warning_threshold, critical_threshold, comparison_operator) VALUES
	('dead_emails_24h', 1, 0, 10, 'greater_than');
