import { z } from "zod";

/** Operations Center → Backup → Restore: which backup, and the agent by e-mail. */
export const RestoreFormSchema = z.object({
  backupId: z.string().trim().min(1, "Choose a backup to restore.").max(64, "Choose a backup to restore."),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Enter the agent's e-mail address.")
    .max(254, "Enter the agent's e-mail address.")
    .email("Enter the agent's e-mail address."),
});
