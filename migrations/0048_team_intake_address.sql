-- A team's lead intake address (ADR 0065): drizzle-kit writes an added column's reference without its ON DELETE,
-- written here by hand as the schema says.
ALTER TABLE `lead_intake_addresses` ADD `team_id` text REFERENCES teams(id) ON DELETE CASCADE;--> statement-breakpoint
CREATE INDEX `lead_intake_addresses_team` ON `lead_intake_addresses` (`team_id`,`revoked_at`) WHERE "lead_intake_addresses"."team_id" is not null;--> statement-breakpoint
ALTER TABLE `lead_intake_messages` ADD `team_id` text REFERENCES teams(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `lead_intake_messages_team` ON `lead_intake_messages` (`team_id`) WHERE "lead_intake_messages"."team_id" is not null;