CREATE TABLE `contact_status_counts` (
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_status_counts_pk` ON `contact_status_counts` (`user_id`,`status`);--> statement-breakpoint
CREATE TABLE `contact_tag_counts` (
	`user_id` text NOT NULL,
	`tag` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_tag_counts_pk` ON `contact_tag_counts` (`user_id`,`tag`);--> statement-breakpoint
-- Written by hand below: the counters behind the contact list's status tabs and tag filter, kept by
-- triggers so they are exact after every write, and an index that matches tags without regard to case.
CREATE INDEX `contact_tags_user_tag_nocase` ON `contact_tags` (`user_id`, `tag` COLLATE NOCASE, `contact_id`);
--> statement-breakpoint
INSERT INTO contact_status_counts(user_id, status, n) SELECT user_id, status, count(*) FROM contacts GROUP BY user_id, status;
--> statement-breakpoint
INSERT INTO contact_tag_counts(user_id, tag, n) SELECT user_id, tag, count(*) FROM contact_tags GROUP BY user_id, tag;
--> statement-breakpoint
CREATE TRIGGER `contacts_ai_counts` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO contact_status_counts(user_id, status, n) VALUES (new.user_id, new.status, 1)
		ON CONFLICT(user_id, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_ad_counts` AFTER DELETE ON `contacts` BEGIN
	UPDATE contact_status_counts SET n = n - 1 WHERE user_id = old.user_id AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_au_counts` AFTER UPDATE OF status ON `contacts` WHEN old.status IS NOT new.status BEGIN
	UPDATE contact_status_counts SET n = n - 1 WHERE user_id = old.user_id AND status = old.status;
	INSERT INTO contact_status_counts(user_id, status, n) VALUES (new.user_id, new.status, 1)
		ON CONFLICT(user_id, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contact_tags_ai_counts` AFTER INSERT ON `contact_tags` BEGIN
	INSERT INTO contact_tag_counts(user_id, tag, n) VALUES (new.user_id, new.tag, 1)
		ON CONFLICT(user_id, tag) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contact_tags_ad_counts` AFTER DELETE ON `contact_tags` BEGIN
	UPDATE contact_tag_counts SET n = n - 1 WHERE user_id = old.user_id AND tag = old.tag;
	DELETE FROM contact_tag_counts WHERE user_id = old.user_id AND tag = old.tag AND n <= 0;
END;
