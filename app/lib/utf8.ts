/** The UTF-8 length of a string in bytes, without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Joins JSON texts into JSON arrays of at most `maxBytes` UTF-8 bytes each, in order. An item that alone is
 * larger than `maxBytes` throws: the caller must keep single items well under the limit.
 */
export function jsonArraysWithin(items: string[], maxBytes: number): string[] {
  const arrays: string[] = [];
  let current: string[] = [];
  let size = 2; // "[" and "]"
  for (const item of items) {
    const bytes = utf8Bytes(item);
    if (bytes + 2 > maxBytes) throw new RangeError(`One item is ${bytes} bytes, over the ${maxBytes}-byte limit.`);
    const added = bytes + (current.length > 0 ? 1 : 0); // the comma
    if (current.length > 0 && size + added > maxBytes) {
      arrays.push(`[${current.join(",")}]`);
      current = [];
      size = 2;
    }
    size += current.length > 0 ? bytes + 1 : bytes;
    current.push(item);
  }
  if (current.length > 0) arrays.push(`[${current.join(",")}]`);
  return arrays;
}
