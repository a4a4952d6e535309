CREATE TABLE `backups` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`table_count` integer DEFAULT 0 NOT NULL,
	`row_count` integer DEFAULT 0 NOT NULL,
	`schema_version` text,
	`error_message` text,
	`drill_status` text,
	`drill_at` integer,
	`drill_ms` integer,
	`drill_error` text
);
--> statement-breakpoint
CREATE INDEX `backups_started` ON `backups` (`started_at`);