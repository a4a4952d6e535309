CREATE TABLE `lead_source_days` (
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`day` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_source_days_pk` ON `lead_source_days` (`user_id`,`source`,`day`);--> statement-breakpoint
DROP INDEX `contacts_user_source_lead`;--> statement-breakpoint
CREATE INDEX `contacts_user_answered_lead` ON `contacts` (`user_id`,`source`,`lead_at`,`first_response_at`,`answered_by`) WHERE "contacts"."lead_at" is not null and "contacts"."first_response_at" is not null;--> statement-breakpoint
-- Written by hand below (ADR 0081): leads per source per UTC day of arrival, for the agent who holds each, kept by
-- triggers so Reports and Team reports count a long period without reading every lead in it. A lead counts for its
-- holder while it waits or when they answered it themselves (figures.server.ts answeredByHolder); a day is its first
-- instant in epoch ms, floored toward the past as in contact_source_days (migration 0013). Rows that fall to zero go.
INSERT INTO lead_source_days (user_id, source, day, n)
	SELECT user_id, source, lead_at - ((lead_at % 86400000) + 86400000) % 86400000 AS d, count(*)
	FROM contacts WHERE lead_at IS NOT NULL AND (answered_by IS NULL OR answered_by = user_id)
	GROUP BY user_id, source, d;
--> statement-breakpoint
CREATE TRIGGER `contacts_ai_lead_days` AFTER INSERT ON `contacts`
	WHEN new.lead_at IS NOT NULL AND (new.answered_by IS NULL OR new.answered_by = new.user_id) BEGIN
	INSERT INTO lead_source_days (user_id, source, day, n)
		VALUES (new.user_id, new.source, new.lead_at - ((new.lead_at % 86400000) + 86400000) % 86400000, 1)
		ON CONFLICT (user_id, source, day) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad_lead_days` AFTER DELETE ON `contacts`
	WHEN old.lead_at IS NOT NULL AND (old.answered_by IS NULL OR old.answered_by = old.user_id) BEGIN
	UPDATE lead_source_days SET n = n - 1
		WHERE user_id = old.user_id AND source = old.source AND day = old.lead_at - ((old.lead_at % 86400000) + 86400000) % 86400000;
	DELETE FROM lead_source_days
		WHERE user_id = old.user_id AND source = old.source AND day = old.lead_at - ((old.lead_at % 86400000) + 86400000) % 86400000 AND n <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_lead_days` AFTER UPDATE OF user_id, source, lead_at, answered_by ON `contacts`
	WHEN old.user_id IS NOT new.user_id OR old.source IS NOT new.source OR old.lead_at IS NOT new.lead_at OR old.answered_by IS NOT new.answered_by BEGIN
	UPDATE lead_source_days SET n = n - 1
		WHERE old.lead_at IS NOT NULL AND (old.answered_by IS NULL OR old.answered_by = old.user_id)
			AND user_id = old.user_id AND source = old.source AND day = old.lead_at - ((old.lead_at % 86400000) + 86400000) % 86400000;
	DELETE FROM lead_source_days
		WHERE user_id = old.user_id AND source = old.source AND day = old.lead_at - ((old.lead_at % 86400000) + 86400000) % 86400000 AND n <= 0;
	INSERT INTO lead_source_days (user_id, source, day, n)
		SELECT new.user_id, new.source, new.lead_at - ((new.lead_at % 86400000) + 86400000) % 86400000, 1
		WHERE new.lead_at IS NOT NULL AND (new.answered_by IS NULL OR new.answered_by = new.user_id)
		ON CONFLICT (user_id, source, day) DO UPDATE SET n = n + 1;
END;
