CREATE TABLE `write_guard` (
	`ok` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `trash_rows_links` ON `trash_rows` (`user_id`,`tbl`) WHERE "trash_rows"."role" = 'link';--> statement-breakpoint
-- Written by hand below. A write that touches another user's rows (a team lead handed to an agent, a removed member's
-- work, a share) checks the relationship it relies on (membership, role, current holder) inside its own D1 batch, in
-- SQL, as the batch's first statement: `insert into write_guard (ok) select <condition>`. True, the row is dropped
-- (RAISE(IGNORE): the table never holds one); false, the trigger aborts the statement and with it the whole batch (a
-- batch is one transaction), so nothing of the write lands. app/db/write-guard.server.ts builds it.
CREATE TRIGGER `write_guard_holds` BEFORE INSERT ON `write_guard` WHEN new.ok IS 1 BEGIN
	SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
CREATE TRIGGER `write_guard_fails` BEFORE INSERT ON `write_guard` WHEN new.ok IS NOT 1 BEGIN
	SELECT RAISE(ABORT, 'write_guard: the relationship this write relies on no longer holds');
END;
--> statement-breakpoint
-- Closing an account now leaves its team at once. Members who closed theirs before that leave now: their leads'
-- records no longer point into the closed account, and they are out of the rotation (seats follow at the team's next
-- membership change).
UPDATE `team_leads` SET `contact_id` = NULL
	WHERE `assigned_to` IN (SELECT `id` FROM `users` WHERE `purge_after` IS NOT NULL)
	AND `assigned_to` NOT IN (SELECT `owner_id` FROM `teams`);
--> statement-breakpoint
DELETE FROM `team_members` WHERE `role` <> 'owner' AND `user_id` IN (SELECT `id` FROM `users` WHERE `purge_after` IS NOT NULL);
