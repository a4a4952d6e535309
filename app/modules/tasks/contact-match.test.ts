import { describe, expect, it } from "vitest";
import { nameWords, rankContactMatches } from "./contact-match";

const priyaShah = { id: "c1", name: "Priya Shah" };
const priyaPatel = { id: "c2", name: "Priya Patel" };
const jose = { id: "c3", name: "José Álvarez" };

describe("quick add's contact match", () => {
  it("takes the words that may name someone, not the task's own words or numbers", () => {
    expect(nameWords("Call Priya about the offer on 12 Oak")).toEqual(["priya", "oak"]);
    expect(nameWords("Send e-mail to José")).toEqual(["jose"]);
    expect(nameWords("call")).toEqual([]);
  });

  it("links the one contact a title names, and the fuller match when first names are shared", () => {
    expect(rankContactMatches(["priya"], [priyaShah])).toEqual({ linked: priyaShah, candidates: [] });
    expect(rankContactMatches(["priya", "shah"], [priyaPatel, priyaShah])).toEqual({ linked: priyaShah, candidates: [] });
    expect(rankContactMatches(["jose"], [jose])).toEqual({ linked: jose, candidates: [] });
  });

  it("offers the tied contacts instead of guessing, and nothing when no name matches", () => {
    expect(rankContactMatches(["priya"], [priyaShah, priyaPatel])).toEqual({ linked: null, candidates: [priyaPatel, priyaShah] });
    // A word inside a longer name is not a match ("Al" is not "Alvarez").
    expect(rankContactMatches(["al"], [jose])).toEqual({ linked: null, candidates: [] });
  });
});
