import { describe, expect, it } from "vitest";
import { mailtoHref, splitEmail } from "./email";

describe("splitEmail", () => {
  it("reads the Subject line and the body after the blank line", () => {
    expect(splitEmail("Subject: Following up on the showing\n\nHi Zoë,\n\nThanks again.\n")).toEqual({
      subject: "Following up on the showing",
      body: "Hi Zoë,\n\nThanks again.",
    });
  });

  it("accepts CRLF, leading blank lines, any case and a markdown-bold label", () => {
    expect(splitEmail("\r\n  subject:   Hello there \r\n\r\nBody line")).toEqual({ subject: "Hello there", body: "Body line" });
    expect(splitEmail("**Subject:** Next steps\n\nHi")).toEqual({ subject: "Next steps", body: "Hi" });
  });

  it("without a Subject line: subject is empty and the body is the text", () => {
    const text = "Hi Zoë,\n\nSubject: not a header here.";
    expect(splitEmail(text)).toEqual({ subject: "", body: text });
    expect(splitEmail("")).toEqual({ subject: "", body: "" });
  });

  it("handles a Subject line with no body", () => {
    expect(splitEmail("Subject: Only this")).toEqual({ subject: "Only this", body: "" });
  });
});

describe("mailtoHref", () => {
  const text = "Subject: Offer & next steps?\n\nHi Zoë,\n\nLet's talk at 5 = ok?\n\nJordan";

  it("encodes the address, subject and body, with CRLF line breaks", () => {
    const href = mailtoHref("zoe.o'brien+home@example.com", text);
    expect(href.startsWith("mailto:zoe.o'brien%2Bhome@example.com?")).toBe(true);
    const url = new URL(href);
    expect(url.searchParams.get("subject")).toBe("Offer & next steps?");
    expect(url.searchParams.get("body")).toBe("Hi Zoë,\r\n\r\nLet's talk at 5 = ok?\r\n\r\nJordan");
    expect(href).toContain("subject=Offer%20%26%20next%20steps%3F");
    expect(href).not.toMatch(/[ \n]/);
  });

  it("allows a missing address", () => {
    expect(mailtoHref(null, text).startsWith("mailto:?subject=")).toBe(true);
    expect(mailtoHref("  ", text).startsWith("mailto:?subject=")).toBe(true);
  });

  it("leaves out an empty subject or body", () => {
    expect(mailtoHref("a@b.co", "Just a body")).toBe("mailto:a@b.co?body=Just%20a%20body");
    expect(mailtoHref("a@b.co", "Subject: Only")).toBe("mailto:a@b.co?subject=Only");
    expect(mailtoHref(null, "")).toBe("mailto:");
  });
});
