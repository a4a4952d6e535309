CREATE TABLE `insight_versions` (
	`user_id` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `contacts` ADD `lead_score` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `lead_score_factors` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `lead_scored_at` integer;--> statement-breakpoint
CREATE INDEX `contacts_user_score` ON `contacts` (`user_id`,`lead_score`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_user_unscored` ON `contacts` (`user_id`) WHERE lead_scored_at IS NULL;--> statement-breakpoint
CREATE INDEX `contacts_scored_at` ON `contacts` (`lead_scored_at`);--> statement-breakpoint
-- Lead scores: any change to a score's inputs marks the contact for rescoring (lead_scored_at = NULL);
-- modules/contacts/lead-score.server.ts computes them (the formula lives in TypeScript only).
CREATE TRIGGER `contacts_au_score_stale` AFTER UPDATE OF status, budget_min, budget_max, source, email, phone, last_activity ON `contacts`
	WHEN new.lead_scored_at IS NOT NULL BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ai_score_stale` AFTER INSERT ON `crm_activities` WHEN new.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id = new.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_score_stale` AFTER DELETE ON `crm_activities` WHEN old.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id = old.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_score_stale` AFTER UPDATE OF contact_id ON `crm_activities` BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id IN (old.contact_id, new.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER `deals_ai_score_stale` AFTER INSERT ON `deals` WHEN new.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id = new.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_ad_score_stale` AFTER DELETE ON `deals` WHEN old.contact_id IS NOT NULL BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id = old.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_au_score_stale` AFTER UPDATE OF contact_id, stage, closed_date ON `deals` BEGIN
	UPDATE contacts SET lead_scored_at = NULL WHERE id IN (old.contact_id, new.contact_id);
END;
--> statement-breakpoint
-- Insight cache versions: every write to the four tables the insights read raises the owner's version.
CREATE TRIGGER `contacts_ai_insights` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_insights` AFTER UPDATE OF name, status, budget_max, last_activity ON `contacts` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad_insights` AFTER DELETE ON `contacts` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_ai_insights` AFTER INSERT ON `deals` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_au_insights` AFTER UPDATE ON `deals` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_ad_insights` AFTER DELETE ON `deals` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_ai_insights` AFTER INSERT ON `crm_tasks` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_au_insights` AFTER UPDATE ON `crm_tasks` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_tasks_ad_insights` AFTER DELETE ON `crm_tasks` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ai_insights` AFTER INSERT ON `crm_activities` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_insights` AFTER UPDATE ON `crm_activities` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_insights` AFTER DELETE ON `crm_activities` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
