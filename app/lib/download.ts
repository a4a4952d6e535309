/**
 * Saves a fetched file the way a link download would: the name the server gave (Content-Disposition) or
 * `fallback`. Used where the page must know when the file has arrived (a button busy until then, a toast).
 * Throws with the server's own message when it refused.
 */
export async function saveDownload(response: Response, fallback: string): Promise<string> {
  if (!response.ok) throw new Error((await response.text()) || `The server answered ${response.status}.`);
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? fallback;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
