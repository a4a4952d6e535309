ALTER TABLE `teams` ADD `pending_owner_id` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `pending_owner_at` integer;--> statement-breakpoint
-- Written by hand below (ADR 0039): a row that changes owner (a removed member's contacts, deals, tasks and
-- activities reassigned to a teammate) keeps every owner-keyed record right, as an insert for the new owner and a
-- delete for the old one would: the status and tag counters, the deal's stage history, the old owner's field copy
-- (a sync_log entry the old owner's next sync reads as "gone"; the new owner's entry comes from the *_au_sync_log
-- triggers), and both owners' insight caches. contact_source_days already follows user_id (0013).
CREATE TRIGGER `contacts_au_owner` AFTER UPDATE OF user_id ON `contacts` WHEN old.user_id IS NOT new.user_id BEGIN
	UPDATE contact_status_counts SET n = n - 1 WHERE user_id = old.user_id AND status = old.status;
	INSERT INTO contact_status_counts(user_id, status, n) VALUES (new.user_id, new.status, 1)
		ON CONFLICT(user_id, status) DO UPDATE SET n = n + 1;
	DELETE FROM contact_tags WHERE contact_id = new.id;
	INSERT OR IGNORE INTO contact_tags(user_id, contact_id, tag) SELECT new.user_id, new.id, value FROM json_each(new.tags);
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'contact', old.id, old.id);
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_au_owner` AFTER UPDATE OF user_id ON `deals` WHEN old.user_id IS NOT new.user_id BEGIN
	UPDATE deal_stage_history SET user_id = new.user_id WHERE deal_id = new.id;
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_au_owner` AFTER UPDATE OF user_id ON `crm_tasks` WHEN old.user_id IS NOT new.user_id BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'task', old.id, old.contact_id);
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_owner` AFTER UPDATE OF user_id ON `crm_activities` WHEN old.user_id IS NOT new.user_id BEGIN
	INSERT INTO sync_log (user_id, kind, row_id, contact_id) VALUES (old.user_id, 'activity', old.id, old.contact_id);
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
