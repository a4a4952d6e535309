CREATE TABLE `deal_stage_history` (
	`seq` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`deal_id` text NOT NULL,
	`stage` text NOT NULL,
	`entered_at` integer NOT NULL,
	`left_at` integer,
	`next_stage` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_stage_history_user_entered` ON `deal_stage_history` (`user_id`,`entered_at`);--> statement-breakpoint
CREATE INDEX `deal_stage_history_deal_open` ON `deal_stage_history` (`deal_id`,`left_at`);--> statement-breakpoint
CREATE TABLE `lead_source_costs` (
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`month` text NOT NULL,
	`cost_cents` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_source_costs_user_month_source` ON `lead_source_costs` (`user_id`,`month`,`source`);--> statement-breakpoint
DROP INDEX `contacts_user_source`;--> statement-breakpoint
ALTER TABLE `contacts` ADD `first_response_at` integer;--> statement-breakpoint
CREATE INDEX `contacts_user_unanswered` ON `contacts` (`user_id`,`created_at`) WHERE "contacts"."first_response_at" is null;--> statement-breakpoint
CREATE INDEX `contacts_user_source_created` ON `contacts` (`user_id`,`source`,`created_at`);--> statement-breakpoint
CREATE INDEX `contacts_user_answered` ON `contacts` (`user_id`,`created_at`,`source`,`first_response_at`) WHERE "contacts"."first_response_at" is not null;--> statement-breakpoint
ALTER TABLE `user_preferences` ADD `income_goal_cents` integer;--> statement-breakpoint
-- Reports. Speed to lead: contacts.first_response_at is the earliest call, text, e-mail sent or
-- meeting logged with the contact (modules/reports/definitions.ts RESPONSE_TYPES), kept here so a period's
-- response times are read from the contacts alone.
CREATE TRIGGER `crm_activities_ai_first_response` AFTER INSERT ON `crm_activities`
	WHEN new.contact_id IS NOT NULL AND new.type IN ('call', 'text', 'email_sent', 'meeting') BEGIN
	UPDATE contacts SET first_response_at = new.occurred_at
		WHERE id = new.contact_id AND (first_response_at IS NULL OR first_response_at > new.occurred_at);
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_ad_first_response` AFTER DELETE ON `crm_activities`
	WHEN old.contact_id IS NOT NULL AND old.type IN ('call', 'text', 'email_sent', 'meeting') BEGIN
	UPDATE contacts SET first_response_at = (SELECT min(a.occurred_at) FROM crm_activities a WHERE a.contact_id = old.contact_id AND a.type IN ('call', 'text', 'email_sent', 'meeting'))
		WHERE id = old.contact_id;
END;
--> statement-breakpoint
CREATE TRIGGER `crm_activities_au_first_response` AFTER UPDATE OF contact_id, type, occurred_at ON `crm_activities` BEGIN
	UPDATE contacts SET first_response_at = (SELECT min(a.occurred_at) FROM crm_activities a WHERE a.contact_id = contacts.id AND a.type IN ('call', 'text', 'email_sent', 'meeting'))
		WHERE id IN (old.contact_id, new.contact_id);
END;
--> statement-breakpoint
UPDATE contacts SET first_response_at = (SELECT min(a.occurred_at) FROM crm_activities a WHERE a.contact_id = contacts.id AND a.type IN ('call', 'text', 'email_sent', 'meeting'));
--> statement-breakpoint
-- The pipeline funnel: every stay of a deal in a stage. A new deal enters its first stage; a move closes the
-- open stay and opens the next (deals.stage_changed_at is set by every move, modules/deals/deals.server.ts).
CREATE TRIGGER `deals_ai_stage_history` AFTER INSERT ON `deals` BEGIN
	INSERT INTO deal_stage_history (user_id, deal_id, stage, entered_at) VALUES (new.user_id, new.id, new.stage, new.stage_changed_at);
END;
--> statement-breakpoint
CREATE TRIGGER `deals_au_stage_history` AFTER UPDATE OF stage ON `deals` WHEN old.stage IS NOT new.stage BEGIN
	UPDATE deal_stage_history SET left_at = new.stage_changed_at, next_stage = new.stage WHERE deal_id = new.id AND left_at IS NULL;
	INSERT INTO deal_stage_history (user_id, deal_id, stage, entered_at) VALUES (new.user_id, new.id, new.stage, new.stage_changed_at);
END;
--> statement-breakpoint
-- Deals that exist already: their history from the stage changes the pipeline recorded as activities. The
-- first stay is the stage the first change left (or the current stage), from the day the deal was created.
INSERT INTO deal_stage_history (user_id, deal_id, stage, entered_at, left_at, next_stage)
	SELECT d.user_id, d.id,
		coalesce(json_extract(first.meta, '$.from'), d.stage),
		d.created_at,
		first.occurred_at,
		json_extract(first.meta, '$.to')
	FROM deals d
	LEFT JOIN crm_activities first ON first.id = (
		SELECT a.id FROM crm_activities a WHERE a.deal_id = d.id AND a.type = 'stage_change' ORDER BY a.occurred_at, a.id LIMIT 1
	);
--> statement-breakpoint
INSERT INTO deal_stage_history (user_id, deal_id, stage, entered_at, left_at, next_stage)
	SELECT d.user_id, a.deal_id, json_extract(a.meta, '$.to'), a.occurred_at,
		lead(a.occurred_at) OVER w, lead(json_extract(a.meta, '$.to')) OVER w
	FROM crm_activities a JOIN deals d ON d.id = a.deal_id
	WHERE a.type = 'stage_change' AND json_extract(a.meta, '$.to') IS NOT NULL
	WINDOW w AS (PARTITION BY a.deal_id ORDER BY a.occurred_at, a.id);
