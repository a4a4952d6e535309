import { describe, expect, it } from "vitest";
import { readMail } from "~/modules/intake/mail.server";
import { readLeadEmail } from "~/modules/intake/parse";
import { fieldValue, findPriceCents, forwardedFrom } from "~/modules/intake/parse/read";

// The lead e-mail parsers (ADR 0065) on their fixtures (tests/fixtures/intake): each portal's layout, plain text and
// HTML, quoted-printable and base64, UTF-8 names, forwards from Gmail and Outlook, a website form, and an e-mail no
// parser knows, which still gets a best guess for review.

const FIXTURES = import.meta.glob<string>("/tests/fixtures/intake/*.eml", { query: "?raw", import: "default", eager: true });
const DOMAIN = "leads.porchlight.app";

async function read(name: string) {
  const raw = FIXTURES[`/tests/fixtures/intake/${name}.eml`];
  if (!raw) throw new Error(`No fixture ${name}`);
  const mail = await readMail(raw);
  return { mail, reading: readLeadEmail(mail.input, DOMAIN) };
}

describe("portal lead e-mails", () => {
  it("Zillow, plain text and quoted-printable: the lead, the listing and the receiving server's verdicts", async () => {
    const { mail, reading } = await read("zillow-plain");
    expect(reading).toEqual({
      format: "zillow",
      source: "zillow",
      complete: true,
      lead: {
        name: "Jane Whitmore",
        email: "jane.whitmore@example.com",
        phone: "(512) 555-0148",
        message: "I am interested in 12 Oak St, Austin, TX 78704. Is it still available? We would like to tour this weekend — Saturday works best.",
        property: {
          address: "12 Oak St, Austin, TX 78704",
          mls: "7123456",
          priceCents: 48_500_000,
          url: "https://www.zillow.com/homedetails/12-Oak-St-Austin-TX-78704/1234567_zpid/",
        },
      },
    });
    expect(mail.sentAt?.toISOString()).toBe("2026-11-24T15:50:20.000Z");
    expect(mail.messageId).toBe("<zillow-lead-1001@zillow.com>");
    expect(mail.auth).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass" });
  });

  it("Zillow forwarded from Gmail as HTML only, base64: read from the forward, the agent who forwarded it is not the lead", async () => {
    const { reading } = await read("zillow-gmail-forward-html");
    expect(reading.format).toBe("zillow");
    expect(reading.lead).toMatchObject({ name: "Ben Ortiz", email: "ben.ortiz@example.com", phone: "5125550111", message: "What are the HOA fees?" });
    expect(reading.lead.property).toEqual({
      address: "300 Bowie St #1204, Austin, TX 78703",
      mls: "6650021",
      priceCents: 72_500_000,
      url: "https://www.zillow.com/homedetails/300-Bowie-St-1204-Austin-TX-78703/29384756_zpid/",
    });
  });

  it("Realtor.com in HTML with quoted-printable soft breaks: first and last name joined, table cells read as fields", async () => {
    const { reading } = await read("realtor-com-html");
    expect(reading).toMatchObject({ format: "realtor_com", source: "realtor_com", complete: true });
    expect(reading.lead).toMatchObject({
      name: "Carlos Mendoza",
      email: "carlos.m@example.net",
      phone: "512.555.0199",
      message: "Please send me more information about this property. Does it have a pool?",
    });
    expect(reading.lead.property).toEqual({
      address: "4410 Duval Rd, Austin, TX 78727",
      mls: "TX-9982211",
      priceCents: 61_250_000,
      url: "https://www.realtor.com/realestateandhomes-detail/4410-Duval-Rd_Austin_TX_78727_M12345-67890",
    });
  });

  it("Homes.com in base64 with a UTF-8 name in the subject and the body", async () => {
    const { mail, reading } = await read("homes-com-base64");
    expect(mail.input.subject).toBe("New lead: José Núñez-García");
    expect(reading).toMatchObject({ format: "homes_com", source: "homes_com", complete: true });
    expect(reading.lead).toMatchObject({
      name: "José Núñez-García",
      email: "jose.nunez@example.org",
      phone: "+1 737-555-0123",
      message: "¿Podemos ver la casa el martes? We are pre-approved up to $400k.",
    });
    expect(reading.lead.property).toMatchObject({ address: "907 Elm Ter, Round Rock, TX 78664", mls: "4477120", priceCents: 38_990_000 });
  });

  it("Redfin forwarded from Outlook: the portal is known by the sender inside the forward, its own labels read", async () => {
    const { reading } = await read("redfin-outlook-forward");
    expect(reading).toMatchObject({ format: "redfin", source: "redfin", complete: true });
    expect(reading.lead).toMatchObject({
      name: "Mei Tanaka",
      email: "mei.tanaka@example.com",
      phone: "512-555-0162",
      message: "Wants to see it before Friday. Working with a lender already.",
    });
    expect(reading.lead.property).toEqual({
      address: "1802 Rosewood Ave, Austin, TX 78702",
      mls: "8812345",
      priceCents: 54_900_000,
      url: "https://www.redfin.com/TX/Austin/1802-Rosewood-Ave-78702/home/123456789",
    });
  });

  it("Trulia forwarded from Gmail (text and HTML parts): the text part is read", async () => {
    const { mail, reading } = await read("trulia-gmail-forward");
    expect(mail.auth).toEqual({ spf: "pass", dkim: "pass", dmarc: "none" });
    expect(reading).toMatchObject({ format: "trulia", source: "trulia", complete: true });
    expect(reading.lead).toMatchObject({ name: "Aisha Khan", email: "aisha.khan@example.com", phone: "(512) 555-0177" });
    expect(reading.lead.property).toMatchObject({ address: "55 Lake Shore Dr, Austin, TX 78741", priceCents: 35_000_000, mls: null });
  });

  it("a website form's labelled fields make a website lead", async () => {
    const { reading } = await read("website-form");
    expect(reading).toEqual({
      format: "website_form",
      source: "website",
      complete: true,
      lead: {
        name: "Olivia Grant",
        email: "olivia.grant@example.com",
        phone: "512 555 0190",
        message: "Thinking of selling our house in Hyde Park next spring. What is it worth?",
        property: null,
      },
    });
  });

  it("an e-mail no parser knows waits for review, with the sender as the best guess", async () => {
    const { reading } = await read("unknown-personal");
    expect(reading.format).toBe("unknown");
    expect(reading.complete).toBe(false);
    expect(reading.lead).toMatchObject({ name: "Rob Keller", email: "rob.keller@example.com", phone: "512-555-0105" });
    expect(reading.lead.message).toContain("I drove past your sign on 5th street");
  });
});

describe("reading fields", () => {
  it("a portal e-mail without a name or a way to reach the lead is not complete", () => {
    const reading = readLeadEmail(
      {
        from: { name: "Zillow", address: "no-reply@zillow.com" },
        replyTo: null,
        subject: "Your weekly market report",
        text: "Homes near you sold for $450,000.",
      },
      DOMAIN,
    );
    expect(reading).toMatchObject({ format: "zillow", complete: false });
    expect(reading.lead.name).toBeNull();
  });

  it("the portal's own addresses and the intake address are never the lead's", () => {
    const reading = readLeadEmail(
      {
        from: { name: "Zillow", address: "no-reply@zillow.com" },
        replyTo: { name: "", address: "key@leads.porchlight.app" },
        subject: "New Contact: Sam Lee is requesting information about 9 Pine Rd",
        text: "Write to support@zillow.com\nPhone: 512-555-0133",
      },
      DOMAIN,
    );
    expect(reading.lead).toMatchObject({ name: "Sam Lee", email: null, phone: "512-555-0133" });
  });

  it("labels: inline after a colon, a tab or spaces, or alone with the value below; a price in cents", () => {
    expect(fieldValue("Name: Ann Lee", ["Name"])).toBe("Ann Lee");
    expect(fieldValue("Name\tAnn Lee", ["Name"])).toBe("Ann Lee");
    expect(fieldValue("Name     Ann Lee", ["Name"])).toBe("Ann Lee");
    expect(fieldValue("Name:\n\nAnn Lee\nEmail: a@b.co", ["Name"])).toBe("Ann Lee");
    expect(fieldValue("Message: one\ntwo\nPhone: 1", ["Message"], true)).toBe("one\ntwo");
    expect(fieldValue("Property Type: Condo", ["Property"])).toBeNull();
    expect(findPriceCents("List price $1,250,000.50")).toBe(125_000_050);
    expect(findPriceCents("no price")).toBeNull();
    expect(forwardedFrom("plain e-mail\nFrom: someone")).toBeNull();
  });
});
