import { describe, expect, it } from "vitest";
import { replyText } from "./reply-text";

describe("a reply's own text", () => {
  it("drops the quoted e-mail under an attribution line, wrapped or not", () => {
    expect(replyText("Yes, Saturday works.\n\nOn Mon, Nov 3, 2026 at 10:00 AM Dana Reyes <dana@example.com> wrote:\n> Can we meet?\n")).toBe(
      "Yes, Saturday works.",
    );
    expect(replyText("Sounds good\r\n\r\nOn Mon, Nov 3, 2026 at 10:00 AM Dana Reyes <\r\ndana@example.com> wrote:\r\n\r\n> Hi")).toBe("Sounds good");
  });

  it("drops '>' lines and Outlook's original-message block, and keeps a line that merely starts with On", () => {
    expect(replyText("> quoted first\nMy answer\n> quoted again")).toBe("My answer");
    expect(replyText("Call me.\n\n-----Original Message-----\nFrom: Dana\nSubject: Hi")).toBe("Call me.");
    expect(replyText("Thanks!\n________________________________\nFrom: Dana Reyes")).toBe("Thanks!");
    expect(replyText("On second thought, Sunday is better.\nThanks")).toBe("On second thought, Sunday is better.\nThanks");
  });

  it("is empty when the reply is nothing but the quote", () => {
    expect(replyText("> only the quote")).toBe("");
  });
});
