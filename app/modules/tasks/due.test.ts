import { describe, expect, it } from "vitest";
import { instantOf, isOverdue, localNow, nextOccurrence, openTaskList } from "./due";
import { parseQuickAdd } from "./quick-add";

describe("localNow", () => {
  it("gives the user's calendar day and clock, not UTC's", () => {
    // 04:30 UTC on Nov 23 is still 23:30 on Nov 22 in New York and already 13:30 on Nov 23 in Tokyo.
    const at = new Date("2026-11-23T04:30:00Z");
    expect(localNow("America/New_York", at)).toEqual({ date: "2026-11-22", time: "23:30" });
    expect(localNow("Asia/Tokyo", at)).toEqual({ date: "2026-11-23", time: "13:30" });
    expect(localNow("UTC", at)).toEqual({ date: "2026-11-23", time: "04:30" });
  });

  it("falls back to UTC for an unknown timezone", () => {
    expect(localNow("Mars/Olympus", new Date("2026-01-01T00:05:00Z"))).toEqual({ date: "2026-01-01", time: "00:05" });
  });
});

describe("overdue around midnight in a non-UTC timezone", () => {
  const tz = "America/Los_Angeles";
  it("a task due today is not overdue at 23:59 local, even though UTC is already tomorrow", () => {
    const now = localNow(tz, new Date("2026-11-23T07:59:00Z")); // 23:59 Nov 22 in Los Angeles
    expect(now.date).toBe("2026-11-22");
    expect(isOverdue({ dueDate: "2026-11-22", dueTime: null }, now)).toBe(false);
    expect(openTaskList({ dueDate: "2026-11-22", dueTime: null }, now)).toBe("today");
  });
  it("becomes overdue one minute later, at local midnight", () => {
    const now = localNow(tz, new Date("2026-11-23T08:00:00Z")); // 00:00 Nov 23 local
    expect(isOverdue({ dueDate: "2026-11-22", dueTime: null }, now)).toBe(true);
    expect(openTaskList({ dueDate: "2026-11-23", dueTime: null }, now)).toBe("today");
  });
  it("a timed task is overdue once its time has passed on its day", () => {
    const now = { date: "2026-11-22", time: "15:01" };
    expect(openTaskList({ dueDate: "2026-11-22", dueTime: "15:00" }, now)).toBe("overdue");
    expect(openTaskList({ dueDate: "2026-11-22", dueTime: "15:01" }, now)).toBe("today");
    expect(openTaskList({ dueDate: "2026-11-23", dueTime: "09:00" }, now)).toBe("upcoming");
  });
});

describe("nextOccurrence", () => {
  it("moves daily, weekly and monthly tasks on by one period", () => {
    expect(nextOccurrence("2026-11-22", "daily", "2026-11-22")).toBe("2026-11-23");
    expect(nextOccurrence("2026-11-22", "weekly", "2026-11-22")).toBe("2026-11-29");
    expect(nextOccurrence("2026-11-22", "monthly", "2026-11-22")).toBe("2026-12-22");
  });
  it("keeps the month's last day for the 31st and comes back to the 31st", () => {
    expect(nextOccurrence("2027-01-31", "monthly", "2027-01-31")).toBe("2027-02-28");
    expect(nextOccurrence("2027-01-31", "monthly", "2027-03-01")).toBe("2027-03-31");
    expect(nextOccurrence("2028-01-31", "monthly", "2028-01-31")).toBe("2028-02-29");
  });
  it("skips to today or later when a repeating task is finished late, keeping its weekday", () => {
    expect(nextOccurrence("2026-11-01", "daily", "2026-11-22")).toBe("2026-11-22");
    // Nov 2 2026 is a Monday; finished on Sunday Nov 22, the next Monday is Nov 23.
    expect(nextOccurrence("2026-11-02", "weekly", "2026-11-22")).toBe("2026-11-23");
  });
  it("finished early, the next one is still one period after the due date", () => {
    expect(nextOccurrence("2026-12-10", "weekly", "2026-11-22")).toBe("2026-12-17");
  });
  it("crosses a daylight-saving change without losing or repeating a day", () => {
    expect(nextOccurrence("2026-03-07", "daily", "2026-03-07")).toBe("2026-03-08");
    expect(nextOccurrence("2026-03-08", "daily", "2026-03-08")).toBe("2026-03-09");
    expect(nextOccurrence("2026-10-31", "weekly", "2026-10-31")).toBe("2026-11-07");
  });
});

describe("parseQuickAdd", () => {
  const now = { date: "2026-11-22", time: "23:30" }; // a Sunday, late evening

  it("reads a date and time and keeps the rest as the title", () => {
    expect(parseQuickAdd("Call Jane tomorrow 3pm", now)).toMatchObject({
      title: "Call Jane",
      dueDate: "2026-11-23",
      dueTime: "15:00",
      type: "call",
      dateText: "tomorrow 3pm",
    });
  });
  it("reads weekdays forward and infers the type", () => {
    expect(parseQuickAdd("showing at 12 Oak St friday at 10:30", now)).toMatchObject({ dueDate: "2026-11-27", dueTime: "10:30", type: "showing" });
    expect(parseQuickAdd("send docs to lender on wednesday", now)).toMatchObject({
      title: "Send docs to lender",
      dueDate: "2026-11-25",
      dueTime: null,
      type: "paperwork",
    });
  });
  it("relative days and month names", () => {
    expect(parseQuickAdd("Follow up with the Smiths in 2 days", now)).toMatchObject({
      title: "Follow up with the Smiths",
      dueDate: "2026-11-24",
      type: "follow_up",
    });
    expect(parseQuickAdd("email appraisal report dec 3", now)).toMatchObject({
      title: "Email appraisal report",
      dueDate: "2026-12-03",
      type: "email",
    });
  });
  it("without a date the task is due today, all day", () => {
    expect(parseQuickAdd("  email   Bob  ", now)).toEqual({
      title: "Email Bob",
      dueDate: "2026-11-22",
      dueTime: null,
      type: "email",
      dateText: null,
    });
  });
  it("an empty box gives nothing", () => {
    expect(parseQuickAdd("   ", now)).toBeNull();
  });
});

describe("instantOf", () => {
  it("reads a wall-clock time in the given timezone, across daylight saving", () => {
    expect(instantOf("2026-11-22", "15:00", "America/New_York").toISOString()).toBe("2026-11-22T20:00:00.000Z");
    expect(instantOf("2026-07-01", "15:00", "America/New_York").toISOString()).toBe("2026-07-01T19:00:00.000Z");
    expect(instantOf("2026-11-23", null, "Asia/Tokyo").toISOString()).toBe("2026-11-22T15:00:00.000Z");
  });
});
