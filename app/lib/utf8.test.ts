import { describe, expect, it } from "vitest";
import { jsonArraysWithin, utf8Bytes } from "./utf8";

const bytesOf = (text: string) => new TextEncoder().encode(text).length;

describe("utf8Bytes", () => {
  it("counts UTF-8 bytes, not UTF-16 units", () => {
    for (const text of ["", "abc", "é", "界", "😀", "a😀é界\n", "\ud800 lone", "lone \udc00"]) expect(utf8Bytes(text), text).toBe(bytesOf(text));
  });
});

describe("jsonArraysWithin", () => {
  const item = (chars: number, char = "a") => JSON.stringify(char.repeat(chars - 2)); // "aaa…" is chars bytes for ASCII

  it("keeps an array of exactly the limit whole, and splits at one byte more", () => {
    // Two items of 10 bytes: [x,y] is 1 + 10 + 1 + 10 + 1 = 23 bytes.
    const two = [item(10), item(10)];
    expect(jsonArraysWithin(two, 23)).toEqual([`[${two[0]},${two[1]}]`]);
    expect(bytesOf(jsonArraysWithin(two, 23)[0]!)).toBe(23);
    expect(jsonArraysWithin(two, 22)).toEqual([`[${two[0]}]`, `[${two[1]}]`]);
  });

  it("measures multi-byte text by its bytes: 9,000 characters of 界 are 27,000 bytes", () => {
    const rows = Array.from({ length: 40 }, () => JSON.stringify("界".repeat(9_000)));
    const arrays = jsonArraysWithin(rows, 100_000);
    // 27,002 bytes each: three fit in 100,000, a fourth does not.
    expect(arrays.map((a) => (JSON.parse(a) as string[]).length)).toEqual([...Array(13).fill(3), 1]);
    for (const array of arrays) expect(bytesOf(array)).toBeLessThanOrEqual(100_000);
    expect(arrays.flatMap((a) => JSON.parse(a) as string[])).toHaveLength(40);
  });

  it("keeps the order, and refuses an item that alone passes the limit", () => {
    const items = ["1", "2", "3", "4", "5"];
    expect(jsonArraysWithin(items, 5).map((a) => JSON.parse(a))).toEqual([[1, 2], [3, 4], [5]]);
    expect(jsonArraysWithin([], 5)).toEqual([]);
    expect(() => jsonArraysWithin([item(10)], 11)).toThrow(RangeError);
  });
});
