import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/modules/auth/guards.server";
import { backupDownload, getBackup, readManifest } from "~/modules/backups/backup.server";
import { accountDatabases } from "~/modules/shards/databases.server";

// Operations Center → Backup → Download: one backup as a single .ndjson.gz, streamed from R2 (the
// manifest, then every table's objects one after another). Admins only; everyone else gets 404.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const id = params.id ?? "";
  const row = /^[\w-]{1,64}$/.test(id) ? await getBackup(accountDatabases(context.cloudflare.env), id) : undefined;
  if (!row || row.status !== "completed") throw new Response("There is no completed backup with that id.", { status: 404 });
  const bucket = context.cloudflare.env.BACKUPS;
  const manifest = await readManifest(bucket, id);
  if (!manifest) throw new Response("This backup's manifest is missing from storage: it cannot be downloaded.", { status: 410 });
  return new Response(backupDownload(bucket, manifest), {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="porchlight-backup-${id}.ndjson.gz"`,
      "Cache-Control": "no-store",
    },
  });
}
