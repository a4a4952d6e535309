CREATE TABLE `calendar_feeds` (
	`user_id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash_unique` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE TABLE `crm_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`contact_id` text,
	`deal_id` text,
	`title` text NOT NULL,
	`notes` text,
	`type` text DEFAULT 'follow_up' NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`due_date` text NOT NULL,
	`due_time` text,
	`repeat` text,
	`repeat_of` text,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `crm_tasks_user_status_due` ON `crm_tasks` (`user_id`,`status`,`due_date`,`due_time`);--> statement-breakpoint
CREATE INDEX `crm_tasks_user_completed` ON `crm_tasks` (`user_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `crm_tasks_contact` ON `crm_tasks` (`contact_id`);--> statement-breakpoint
CREATE INDEX `crm_tasks_deal` ON `crm_tasks` (`deal_id`);--> statement-breakpoint
ALTER TABLE `crm_activities` ADD `task_id` text REFERENCES crm_tasks(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `crm_activities_task` ON `crm_activities` (`task_id`);--> statement-breakpoint
-- contacts.last_activity follows the contact's latest activity, whoever writes it (hand-written).
CREATE TRIGGER `crm_activities_ai_last` AFTER INSERT ON `crm_activities` WHEN new.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET last_activity = new.occurred_at WHERE id = new.contact_id AND last_activity < new.occurred_at;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_last` AFTER DELETE ON `crm_activities` WHEN old.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET last_activity = coalesce((SELECT max(a.occurred_at) FROM crm_activities a WHERE a.contact_id = old.contact_id), created_at)
		WHERE id = old.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_last` AFTER UPDATE OF contact_id, occurred_at ON `crm_activities` BEGIN
	UPDATE contacts SET last_activity = coalesce((SELECT max(a.occurred_at) FROM crm_activities a WHERE a.contact_id = old.contact_id), created_at)
		WHERE id = old.contact_id;
	UPDATE contacts SET last_activity = new.occurred_at WHERE id = new.contact_id AND last_activity < new.occurred_at;
END;