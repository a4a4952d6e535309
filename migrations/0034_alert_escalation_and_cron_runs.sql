ALTER TABLE `system_alerts` ADD `mailed_level` text;--> statement-breakpoint
CREATE INDEX `cron_runs_status_started` ON `cron_runs` (`status`,`started_at`);--> statement-breakpoint
-- Written by hand: alerts already open were mailed when they opened; count them as mailed at the level they are at,
-- so the first check after this migration sends no escalation for an alert that was critical before it.
UPDATE `system_alerts` SET `mailed_level` = `level`;
