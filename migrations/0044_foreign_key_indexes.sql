-- Every foreign key column has an index (ADR 0063): deleting a parent row makes SQLite look up its children, and
-- without one that is a scan of the child table per row deleted (an agent restore deleting 112,000 contacts scanned
-- team_leads each time: 131 s, past D1's 30 s per query). Partial where the column may be null.
CREATE INDEX `backup_restores_user` ON `backup_restores` (`user_id`) WHERE "backup_restores"."user_id" is not null;--> statement-breakpoint
CREATE INDEX `backup_restores_requested_by` ON `backup_restores` (`requested_by`) WHERE "backup_restores"."requested_by" is not null;--> statement-breakpoint
CREATE INDEX `backups_user` ON `backups` (`user_id`) WHERE "backups"."user_id" is not null;--> statement-breakpoint
CREATE INDEX `contacts_answered_by` ON `contacts` (`answered_by`) WHERE "contacts"."answered_by" is not null;--> statement-breakpoint
CREATE INDEX `durable_jobs_started_by` ON `durable_jobs` (`started_by`) WHERE "durable_jobs"."started_by" is not null;--> statement-breakpoint
CREATE INDEX `email_outbox_user` ON `email_outbox` (`user_id`) WHERE "email_outbox"."user_id" is not null;--> statement-breakpoint
CREATE INDEX `qa_results_user` ON `qa_results` (`user_id`) WHERE "qa_results"."user_id" is not null;--> statement-breakpoint
CREATE INDEX `qa_runs_user` ON `qa_runs` (`user_id`) WHERE "qa_runs"."user_id" is not null;--> statement-breakpoint
CREATE INDEX `status_incidents_created_by` ON `status_incidents` (`created_by`) WHERE "status_incidents"."created_by" is not null;--> statement-breakpoint
CREATE INDEX `team_handovers_from_user` ON `team_handovers` (`from_user_id`);--> statement-breakpoint
CREATE INDEX `team_handovers_to_user` ON `team_handovers` (`to_user_id`);--> statement-breakpoint
CREATE INDEX `team_invitations_invited_by` ON `team_invitations` (`invited_by`) WHERE "team_invitations"."invited_by" is not null;--> statement-breakpoint
CREATE INDEX `team_invitations_accepted_by` ON `team_invitations` (`accepted_by`) WHERE "team_invitations"."accepted_by" is not null;--> statement-breakpoint
CREATE INDEX `team_leads_contact` ON `team_leads` (`contact_id`) WHERE "team_leads"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX `team_leads_assigned_to` ON `team_leads` (`assigned_to`) WHERE "team_leads"."assigned_to" is not null;--> statement-breakpoint
CREATE INDEX `team_leads_added_by` ON `team_leads` (`added_by`) WHERE "team_leads"."added_by" is not null;--> statement-breakpoint
CREATE INDEX `team_leads_held_by` ON `team_leads` (`held_by`) WHERE "team_leads"."held_by" is not null;--> statement-breakpoint
CREATE INDEX `teams_last_assigned_to` ON `teams` (`last_assigned_to`) WHERE "teams"."last_assigned_to" is not null;--> statement-breakpoint
CREATE INDEX `teams_pending_owner` ON `teams` (`pending_owner_id`) WHERE "teams"."pending_owner_id" is not null;--> statement-breakpoint
CREATE INDEX `trash_rows_user` ON `trash_rows` (`user_id`);--> statement-breakpoint
CREATE INDEX `trial_claims_user` ON `trial_claims` (`user_id`) WHERE "trial_claims"."user_id" is not null;