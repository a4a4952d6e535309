CREATE TABLE `action_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`steps` text NOT NULL,
	`start_source` text,
	`start_stage` text,
	`stop_stages` text DEFAULT '[]' NOT NULL,
	`starter` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_plans_user_name` ON `action_plans` (`user_id`,`name`);--> statement-breakpoint
CREATE INDEX `action_plans_user_source` ON `action_plans` (`user_id`,`start_source`) WHERE "action_plans"."start_source" is not null;--> statement-breakpoint
CREATE INDEX `action_plans_user_stage` ON `action_plans` (`user_id`,`start_stage`) WHERE "action_plans"."start_stage" is not null;--> statement-breakpoint
CREATE TABLE `plan_run_events` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`step` integer,
	`detail` text,
	`email_id` text,
	`task_id` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `plan_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`email_id`) REFERENCES `contact_emails`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`task_id`) REFERENCES `crm_tasks`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `plan_run_events_run_at` ON `plan_run_events` (`run_id`,`at`);--> statement-breakpoint
CREATE INDEX `plan_run_events_user` ON `plan_run_events` (`user_id`);--> statement-breakpoint
CREATE INDEX `plan_run_events_email` ON `plan_run_events` (`email_id`) WHERE "plan_run_events"."email_id" is not null;--> statement-breakpoint
CREATE INDEX `plan_run_events_task` ON `plan_run_events` (`task_id`) WHERE "plan_run_events"."task_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `plan_run_events_step_once` ON `plan_run_events` (`run_id`,`step`,`kind`) WHERE "plan_run_events"."step" is not null;--> statement-breakpoint
CREATE TABLE `plan_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`plan_id` text,
	`plan_name` text NOT NULL,
	`contact_id` text,
	`steps` text NOT NULL,
	`stop_stages` text DEFAULT '[]' NOT NULL,
	`status` text NOT NULL,
	`next_step` integer DEFAULT 0 NOT NULL,
	`next_at` integer,
	`remaining_ms` integer,
	`stop_reason` text,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plan_id`) REFERENCES `action_plans`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `plan_runs_due` ON `plan_runs` (`status`,`next_at`);--> statement-breakpoint
CREATE INDEX `plan_runs_user_started` ON `plan_runs` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `plan_runs_contact` ON `plan_runs` (`contact_id`);--> statement-breakpoint
CREATE INDEX `plan_runs_plan` ON `plan_runs` (`plan_id`) WHERE "plan_runs"."plan_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `plan_runs_live` ON `plan_runs` (`contact_id`,`plan_id`) WHERE "plan_runs"."status" in ('running', 'paused');--> statement-breakpoint
ALTER TABLE `contact_emails` ADD `plan_run_id` text REFERENCES plan_runs(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `contact_emails_plan_run` ON `contact_emails` (`plan_run_id`) WHERE "contact_emails"."plan_run_id" is not null;