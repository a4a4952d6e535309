CREATE TABLE `ai_draft_days` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`drafts` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_draft_days_day` ON `ai_draft_days` (`day`);--> statement-breakpoint
DROP INDEX `contacts_user_answered_by`;--> statement-breakpoint
ALTER TABLE `contacts` ADD `lead_at` integer;--> statement-breakpoint
CREATE INDEX `contacts_user_lead` ON `contacts` (`user_id`,`lead_at`,`source`,`first_response_at`,`answered_by`) WHERE "contacts"."lead_at" is not null;--> statement-breakpoint
-- Written by hand from here on.
-- The warning before a contact is saved with another contact's phone number looks the number up by its digits
-- (modules/contacts/duplicates.server.ts possibleDuplicates): this indexes that expression (drizzle-kit splits an
-- expression with commas into columns).
CREATE INDEX `contacts_user_phone_digits` ON `contacts` (`user_id`,replace(replace(replace(replace(replace(replace("phone", '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', ''));
--> statement-breakpoint
-- A lead is a contact with lead_at (modules/reports/figures.server.ts): the contacts that raised a new-lead alert
-- arrived as leads at the alert's time, and a team lead given to an agent at its assignment.
UPDATE contacts SET lead_at = (SELECT a.arrived_at FROM lead_alerts a WHERE a.contact_id = contacts.id)
	WHERE id IN (SELECT contact_id FROM lead_alerts);
--> statement-breakpoint
UPDATE contacts SET lead_at = (SELECT max(l.assigned_at) FROM team_leads l WHERE l.contact_id = contacts.id AND l.assigned_at IS NOT NULL)
	WHERE lead_at IS NULL AND id IN (SELECT contact_id FROM team_leads WHERE contact_id IS NOT NULL AND assigned_at IS NOT NULL);
--> statement-breakpoint
-- The offline queue's note for a deal move that lost to a move on another device is Porchlight's record, not an
-- activity the agent logged: it becomes the system type sync_conflict (enums.ts), as the queue now writes it.
UPDATE crm_activities SET type = 'sync_conflict'
	WHERE type = 'note' AND notes LIKE 'Moved offline to %, but the deal had moved to % on another device, which stands.%';
