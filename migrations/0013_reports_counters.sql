CREATE TABLE `contact_source_days` (
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`day` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_source_days_pk` ON `contact_source_days` (`user_id`,`source`,`day`);--> statement-breakpoint
CREATE INDEX `crm_activities_user_type_time` ON `crm_activities` (`user_id`,`type`,`occurred_at`);--> statement-breakpoint
-- Written by hand below: contacts added per source per UTC day, kept by triggers so Reports and the
-- dashboard count a long period without reading every contact in it. A day is its first instant in epoch ms;
-- the expression floors toward the past for times before 1970 too. Rows that fall to zero are removed.
INSERT INTO contact_source_days (user_id, source, day, n)
	SELECT user_id, source, created_at - ((created_at % 86400000) + 86400000) % 86400000 AS d, count(*)
	FROM contacts GROUP BY user_id, source, d;
--> statement-breakpoint
CREATE TRIGGER `contacts_ai_source_days` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO contact_source_days (user_id, source, day, n)
		VALUES (new.user_id, new.source, new.created_at - ((new.created_at % 86400000) + 86400000) % 86400000, 1)
		ON CONFLICT (user_id, source, day) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad_source_days` AFTER DELETE ON `contacts` BEGIN
	UPDATE contact_source_days SET n = n - 1
		WHERE user_id = old.user_id AND source = old.source AND day = old.created_at - ((old.created_at % 86400000) + 86400000) % 86400000;
	DELETE FROM contact_source_days
		WHERE user_id = old.user_id AND source = old.source AND day = old.created_at - ((old.created_at % 86400000) + 86400000) % 86400000 AND n <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_source_days` AFTER UPDATE OF user_id, source, created_at ON `contacts`
	WHEN old.user_id IS NOT new.user_id OR old.source IS NOT new.source OR old.created_at IS NOT new.created_at BEGIN
	UPDATE contact_source_days SET n = n - 1
		WHERE user_id = old.user_id AND source = old.source AND day = old.created_at - ((old.created_at % 86400000) + 86400000) % 86400000;
	DELETE FROM contact_source_days
		WHERE user_id = old.user_id AND source = old.source AND day = old.created_at - ((old.created_at % 86400000) + 86400000) % 86400000 AND n <= 0;
	INSERT INTO contact_source_days (user_id, source, day, n)
		VALUES (new.user_id, new.source, new.created_at - ((new.created_at % 86400000) + 86400000) % 86400000, 1)
		ON CONFLICT (user_id, source, day) DO UPDATE SET n = n + 1;
END;
