CREATE TABLE `applied_changes` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`result` text NOT NULL,
	`applied_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `applied_changes_user_key` ON `applied_changes` (`user_id`,`key`);--> statement-breakpoint
CREATE INDEX `applied_changes_at` ON `applied_changes` (`applied_at`);--> statement-breakpoint
CREATE TABLE `sync_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`row_id` text NOT NULL,
	`contact_id` text
);
--> statement-breakpoint
CREATE INDEX `sync_log_user_seq` ON `sync_log` (`user_id`,`seq`);--> statement-breakpoint
CREATE TABLE `sync_marks` (
	`at` integer PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL
);
--> statement-breakpoint
-- Written by hand below (ADR 0031): every insert, change of a synced field, and delete of a contact, task
-- or activity adds a row to sync_log, so a phone's field copy asks only for what changed since its cursor. A
-- contact's change of a field the copy does not hold (a recomputed factor list, updated_at) adds nothing.
CREATE TRIGGER `contacts_ai_sync_log` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'contact', new.id, new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_sync_log` AFTER UPDATE ON `contacts`
	WHEN old.name IS NOT new.name OR old.phone IS NOT new.phone OR old.email IS NOT new.email OR old.status IS NOT new.status
		OR old.budget_min IS NOT new.budget_min OR old.budget_max IS NOT new.budget_max OR old.location IS NOT new.location
		OR old.notes IS NOT new.notes OR old.tags IS NOT new.tags OR old.lead_score IS NOT new.lead_score
		OR old.last_activity IS NOT new.last_activity OR old.property_type IS NOT new.property_type OR old.user_id IS NOT new.user_id
BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'contact', new.id, new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad_sync_log` AFTER DELETE ON `contacts` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'contact', old.id, old.id);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_ai_sync_log` AFTER INSERT ON `crm_tasks` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'task', new.id, new.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_au_sync_log` AFTER UPDATE ON `crm_tasks`
	WHEN old.title IS NOT new.title OR old.notes IS NOT new.notes OR old.status IS NOT new.status OR old.due_date IS NOT new.due_date
		OR old.due_time IS NOT new.due_time OR old.contact_id IS NOT new.contact_id OR old.deal_id IS NOT new.deal_id
		OR old.priority IS NOT new.priority OR old.type IS NOT new.type OR old.user_id IS NOT new.user_id
BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'task', new.id, new.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_ad_sync_log` AFTER DELETE ON `crm_tasks` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'task', old.id, old.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ai_sync_log` AFTER INSERT ON `crm_activities` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'activity', new.id, new.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_sync_log` AFTER UPDATE ON `crm_activities` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (new.user_id, 'activity', new.id, new.contact_id);
	-- Moved to another contact (or unlinked): the old contact's list changes too.
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) SELECT old.user_id, 'activity', old.id, old.contact_id
		WHERE old.contact_id IS NOT NULL AND old.contact_id IS NOT new.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_sync_log` AFTER DELETE ON `crm_activities` BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'activity', old.id, old.contact_id);
END;
