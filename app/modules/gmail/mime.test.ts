import { describe, expect, it } from "vitest";
import { buildMessage, encodeHeaderText, MailFormatError, rfc5322Date } from "./mime";
import { decodeHeaderText, htmlToPlainText, readThread } from "./thread";

describe("the message Porchlight hands Gmail", () => {
  it("encodes a UTF-8 subject in encoded words of at most 75 characters that decode back", () => {
    const subject = "Offre acceptée ✅ — 12 rue de l'Église, Saint-Étienne, visite confirmée pour jeudi";
    const encoded = encodeHeaderText(subject);
    for (const word of encoded.split("\r\n ")) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeHeaderText(encoded)).toBe(subject);
    expect(encodeHeaderText("Plain ASCII")).toBe("Plain ASCII");
  });

  it("writes RFC 5322 dates and refuses line breaks or reserved headers", () => {
    expect(rfc5322Date(Date.UTC(2027, 2, 4, 9, 5, 0))).toBe("Thu, 04 Mar 2027 09:05:00 +0000");
    const from = { email: "agent@gmail.test", name: "Zoë Agent" };
    expect(() => buildMessage({ to: "a@example.com", subject: "x\nBcc: b@example.com", text: "" }, from, "id", 0)).toThrow(MailFormatError);
    expect(() => buildMessage({ to: "a@example.com", subject: "x", text: "", headers: { Bcc: "b@example.com" } }, from, "id", 0)).toThrow(
      "cannot be set",
    );
    const { message, messageId } = buildMessage({ to: "a@example.com", subject: "Hi", text: "Hello" }, from, "abc", 0);
    expect(messageId).toBe("<abc@gmail.test>");
    expect(message).toContain(`From: ${encodeHeaderText("Zoë Agent")} <agent@gmail.test>\r\n`);
    expect(message).toContain("\r\n\r\nSGVsbG8=\r\n");
  });
});

describe("reading a thread", () => {
  it("falls back to the HTML part's text and tells the mailbox's own messages apart", () => {
    expect(htmlToPlainText("<style>p{}</style><p>Hi&nbsp;there &amp; welcome</p><p>Line&#33;</p>")).toBe("Hi there & welcome\nLine!");
    const html = btoa("<div>Sounds <b>great</b></div>").replace(/\+/g, "-").replace(/\//g, "_");
    const [mine, theirs] = readThread(
      [
        {
          id: "2",
          internalDate: "2000",
          labelIds: ["INBOX"],
          payload: {
            headers: [{ name: "From", value: "Lee <lee@example.com>" }],
            mimeType: "multipart/alternative",
            parts: [{ mimeType: "text/html", body: { data: html } }],
          },
        },
        { id: "1", internalDate: "1000", payload: { headers: [{ name: "From", value: "Agent <AGENT@gmail.test>" }] } },
      ],
      "agent@gmail.test",
    );
    expect(mine).toMatchObject({ id: "1", isFromMe: true, text: "" });
    expect(theirs).toMatchObject({ id: "2", isFromMe: false, text: "Sounds great", from: "Lee <lee@example.com>" });
  });
});
