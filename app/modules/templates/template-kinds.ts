import type { TemplateKind } from "~/db/enums";

// What the templates pages show of a template, apart from the form's schema (templates.ts): the list and the editor
// load no zod for it.

export const TEMPLATE_LIMITS = { name: 80, subject: 150, email: 5_000, text: 320 } as const;

export type TemplateScope = "mine" | "team";
/** A template as pages show it. */
export interface TemplateView {
  id: string;
  kind: TemplateKind;
  name: string;
  subject: string | null;
  body: string;
  scope: TemplateScope;
  updatedAt: string;
}

export const KIND_LABELS: Record<TemplateKind, string> = { email: "E-mail", text: "Text" };
