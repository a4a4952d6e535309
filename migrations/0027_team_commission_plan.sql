CREATE TABLE `team_commission_plans` (
	`team_id` text PRIMARY KEY NOT NULL,
	`default_rate` real DEFAULT 3 NOT NULL,
	`referral_fee_pct` real DEFAULT 0 NOT NULL,
	`brokerage_split_pct` real DEFAULT 0 NOT NULL,
	`brokerage_cap_cents` integer,
	`cap_year_start` text DEFAULT '01-01' NOT NULL,
	`team_split_pct` real DEFAULT 0 NOT NULL,
	`transaction_fee_cents` integer DEFAULT 0 NOT NULL,
	`eo_fee_cents` integer DEFAULT 0 NOT NULL,
	`franchise_fee_pct` real DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
