CREATE TABLE `qa_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`user_id` text,
	`category` text NOT NULL,
	`test_name` text NOT NULL,
	`status` text NOT NULL,
	`critical` integer DEFAULT false NOT NULL,
	`details` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `qa_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `qa_results_run` ON `qa_results` (`run_id`,`id`);--> statement-breakpoint
CREATE TABLE `qa_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`suite` text DEFAULT 'system' NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`passed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`critical_failed` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `qa_runs_started` ON `qa_runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `qa_scratch` (
	`id` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
