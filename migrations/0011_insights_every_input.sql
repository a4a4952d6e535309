-- The insight cache (migration 0010) is keyed on a per-user version that triggers raise. 0010 raised it for
-- contacts only on UPDATE OF name, status, budget_max, last_activity, and never for the agent's display
-- preferences or pipeline stages, so editing a contact's location, the currency, the date format, the
-- timezone or a stage's name served stale insights until the next day. Every column the insights read
-- (modules/insights/insights.server.ts loadInsightInputs) now raises it. Contacts keep a column list because
-- lead-score recomputation writes contacts on page views and must not empty the cache each time.
DROP TRIGGER IF EXISTS `contacts_au_insights`;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_insights` AFTER UPDATE OF user_id, name, status, budget_max, last_activity, location ON `contacts` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `user_preferences_ai_insights` AFTER INSERT ON `user_preferences` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `user_preferences_au_insights` AFTER UPDATE OF user_id, timezone, currency, date_format ON `user_preferences` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `user_preferences_ad_insights` AFTER DELETE ON `user_preferences` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_config_ai_insights` AFTER INSERT ON `crm_config` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_config_au_insights` AFTER UPDATE OF user_id, deal_stages ON `crm_config` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (new.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_config_ad_insights` AFTER DELETE ON `crm_config` BEGIN
	INSERT INTO insight_versions (user_id, version) VALUES (old.user_id, 1) ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
