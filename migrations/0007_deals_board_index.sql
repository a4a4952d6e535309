DROP INDEX `deals_user_stage_position`;--> statement-breakpoint
CREATE INDEX `deals_user_stage_position` ON `deals` (`user_id`,`stage`,`position`,`id`);