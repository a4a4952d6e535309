CREATE TABLE `error_rollups` (
	`start` integer NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`shard` text NOT NULL,
	`n` integer NOT NULL,
	`last_seen` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `error_rollups_key` ON `error_rollups` (`start`,`route`,`status`,`shard`);--> statement-breakpoint
CREATE INDEX `error_rollups_start` ON `error_rollups` (`start`);--> statement-breakpoint
CREATE TABLE `metric_rollups` (
	`span` text NOT NULL,
	`start` integer NOT NULL,
	`metric` text NOT NULL,
	`route` text NOT NULL,
	`shard` text NOT NULL,
	`n` integer NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`sum` real DEFAULT 0 NOT NULL,
	`histogram` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `metric_rollups_key` ON `metric_rollups` (`span`,`metric`,`start`,`route`,`shard`);--> statement-breakpoint
CREATE INDEX `metric_rollups_span_start` ON `metric_rollups` (`span`,`start`);--> statement-breakpoint
CREATE TABLE `probe_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`component` text NOT NULL,
	`at` integer NOT NULL,
	`ok` integer NOT NULL,
	`ms` integer NOT NULL,
	`value` real,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `probe_results_component_at` ON `probe_results` (`component`,`at`);--> statement-breakpoint
CREATE INDEX `probe_results_at` ON `probe_results` (`at`);