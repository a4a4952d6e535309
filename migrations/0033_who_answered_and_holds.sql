DROP INDEX `contacts_user_answered`;--> statement-breakpoint
ALTER TABLE `contacts` ADD `answered_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `contacts_user_answered_by` ON `contacts` (`user_id`,`created_at`,`source`,`first_response_at`,`answered_by`) WHERE "contacts"."first_response_at" is not null;--> statement-breakpoint
ALTER TABLE `team_leads` ADD `held_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
-- Written by hand below. Speed to lead belongs to whoever gave the first answer: the first response triggers
-- (migration 0012) keep contacts.answered_by beside first_response_at, the user of that earliest call, text, e-mail
-- sent or meeting. A handover moves the contact and its activities to a teammate; answered_by stays.
DROP TRIGGER `crm_activities_ai_first_response`;
--> statement-breakpoint
DROP TRIGGER `crm_activities_ad_first_response`;
--> statement-breakpoint
DROP TRIGGER `crm_activities_au_first_response`;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ai_first_response` AFTER INSERT ON `crm_activities`
	WHEN new.contact_id IS NOT NULL AND new.type IN ('call', 'text', 'email_sent', 'meeting') BEGIN
	UPDATE contacts SET first_response_at = new.occurred_at, answered_by = new.user_id
		WHERE id = new.contact_id AND (first_response_at IS NULL OR first_response_at > new.occurred_at);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_first_response` AFTER DELETE ON `crm_activities`
	WHEN old.contact_id IS NOT NULL AND old.type IN ('call', 'text', 'email_sent', 'meeting') BEGIN
	UPDATE contacts SET
		first_response_at = (SELECT min(a.occurred_at) FROM crm_activities a WHERE a.contact_id = old.contact_id AND a.type IN ('call', 'text', 'email_sent', 'meeting')),
		answered_by = (SELECT a.user_id FROM crm_activities a WHERE a.contact_id = old.contact_id AND a.type IN ('call', 'text', 'email_sent', 'meeting') ORDER BY a.occurred_at, a.id LIMIT 1)
		WHERE id = old.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_first_response` AFTER UPDATE OF contact_id, type, occurred_at ON `crm_activities` BEGIN
	UPDATE contacts SET
		first_response_at = (SELECT min(a.occurred_at) FROM crm_activities a WHERE a.contact_id = contacts.id AND a.type IN ('call', 'text', 'email_sent', 'meeting')),
		answered_by = (SELECT a.user_id FROM crm_activities a WHERE a.contact_id = contacts.id AND a.type IN ('call', 'text', 'email_sent', 'meeting') ORDER BY a.occurred_at, a.id LIMIT 1)
		WHERE id IN (old.contact_id, new.contact_id);
END;
--> statement-breakpoint
UPDATE contacts SET answered_by = (SELECT a.user_id FROM crm_activities a WHERE a.contact_id = contacts.id AND a.type IN ('call', 'text', 'email_sent', 'meeting') ORDER BY a.occurred_at, a.id LIMIT 1)
	WHERE first_response_at IS NOT NULL;
--> statement-breakpoint
-- The team's lead records say who got each lead (assigned_to) and, apart, whose account holds its contact now
-- (held_by): a handover changes only the second.
UPDATE team_leads SET held_by = assigned_to WHERE contact_id IS NOT NULL;
