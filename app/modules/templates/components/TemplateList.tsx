import { Form, Link, useNavigation } from "@remix-run/react";
import { Mail, MessageSquare } from "lucide-react";
import { Button } from "~/components/ui/Button";
import { KIND_LABELS, type TemplateView } from "../template-kinds";

/** One group of templates (the agent's own, or their team's), each with its kind and first line; team ones copyable. */
export function TemplateList({
  heading,
  templates,
  empty,
  copyable = false,
}: {
  heading: string;
  templates: TemplateView[];
  empty: string;
  copyable?: boolean;
}) {
  const navigation = useNavigation();
  const copying = navigation.state !== "idle" && navigation.formData?.get("intent") === "copy" ? navigation.formData.get("id") : null;
  const id = heading.replace(/\W+/g, "-").toLowerCase();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {heading}
      </h2>
      {templates.length === 0 ? (
        <p className="text-stone-600 dark:text-stone-400">{empty}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
          {templates.map((t) => {
            const Icon = t.kind === "email" ? Mail : MessageSquare;
            return (
              <li key={t.id} className="flex flex-wrap items-center gap-3 p-3">
                <Icon aria-hidden="true" className="h-5 w-5 shrink-0 text-brand-700 dark:text-brand-400" />
                <div className="min-w-0 flex-1">
                  <Link to={`/templates/${t.id}`} className="font-medium underline-offset-2 hover:underline">
                    {t.name}
                  </Link>
                  <span className="ml-2 rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold dark:bg-stone-800">{KIND_LABELS[t.kind]}</span>
                  <p className="truncate text-sm text-stone-600 dark:text-stone-400">{t.subject ?? t.body}</p>
                </div>
                {copyable ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="copy" />
                    <input type="hidden" name="id" value={t.id} />
                    <Button type="submit" variant="secondary" busy={copying === t.id} aria-label={`Copy “${t.name}” to your templates`}>
                      Copy
                    </Button>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
