/**
 * POSTs a JSON body (already serialised) with XMLHttpRequest, which (unlike fetch) reports upload progress: `onProgress` gets the sent
 * fraction, 0 to 1. Resolves with the status and the parsed JSON answer (null when the answer is not JSON);
 * rejects only when the request could not be made at all.
 */
export function postJsonWithProgress<T>(
  url: string,
  body: string,
  onProgress: (fraction: number) => void,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: T | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/json");
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.upload.addEventListener("load", () => onProgress(1));
    xhr.addEventListener("load", () => resolve({ status: xhr.status, data: (xhr.response as T | null) ?? null }));
    xhr.addEventListener("error", () => reject(new Error("The request could not be sent.")));
    xhr.addEventListener("abort", () => reject(new Error("The request was cancelled.")));
    xhr.send(body);
  });
}
