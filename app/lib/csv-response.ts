/** A CSV file to download: `body` as written, never cached (it holds account data). */
export const csvResponse = (body: string, name: string) =>
  new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
