CREATE TABLE `ops_aggregates` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`computed_at` integer NOT NULL,
	`body` text NOT NULL
);
