import { CircleCheckBig, CloudOff, KanbanSquare, LayoutDashboard, Users, Wifi } from "lucide-react";
import { useEffect, useState } from "react";
import { Logo } from "~/components/Logo";
import { buttonClass } from "~/components/ui/Button";
import { Spinner } from "~/components/ui/Spinner";
import { ThemeToggle } from "~/components/ui/ThemeToggle";
import { copyPrefs, pageFor, savedAtLabel, screenFor, type FieldScreen } from "../field-view";
import { dismissAnswers } from "../local-copy.client";
import { AddContactScreen, ContactScreen, ContactsScreen, DashboardScreen, NeedsServerScreen, PipelineScreen, TasksScreen } from "./screens";
import { ChangeAnswers } from "../components/ChangeAnswers";
import { useOnline } from "../use-online";
import { ReachOutPrompt } from "../components/ReachOutPrompt";
import { useCopyState, useSendWhenOnline, type CopyState } from "./use-field-copy-state";

// The field view (ADR 0031): the app's own pages, rebuilt from the copy kept on the phone, for when there
// is no signal. The service worker opens it in place of an app page it cannot load (/field#/contacts/…), so the agent
// lands on the same screen. It reads and queues; sending, syncing and the server's answers go through
// local-copy.client.ts.

const NAV: { to: string; label: string; icon: typeof Users; screens: FieldScreen["name"][] }[] = [
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard, screens: ["dashboard"] },
  { to: "/contacts", label: "Contacts", icon: Users, screens: ["contacts", "contact", "add-contact"] },
  { to: "/pipeline", label: "Pipeline", icon: KanbanSquare, screens: ["pipeline"] },
  { to: "/tasks", label: "Tasks", icon: CircleCheckBig, screens: ["tasks"] },
];

function useScreen(): FieldScreen {
  const [hash, setHash] = useState("");
  useEffect(() => {
    const read = () => {
      setHash(window.location.hash);
      window.scrollTo(0, 0);
    };
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return screenFor(hash);
}

export function FieldApp() {
  const state = useCopyState();
  const online = useOnline();
  const screen = useScreen();
  useSendWhenOnline(state.status === "ready" ? state.userId : null, online);
  const sent = useSentCount(state, online);
  const fullPage = pageFor(screen);

  useEffect(() => {
    const titles: Record<FieldScreen["name"], string> = {
      dashboard: "Dashboard",
      contacts: "Contacts",
      contact: "Contact",
      "add-contact": "Add contact",
      tasks: "Tasks",
      pipeline: "Pipeline",
      "needs-server": "Needs a connection",
    };
    document.title = `${titles[screen.name]} (saved copy) — Porchlight`;
  }, [screen.name]);

  return (
    <div className="min-h-dvh pb-24">
      <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-2 px-4 py-2">
          <a href="#/dashboard" className="rounded-md" aria-label="Dashboard (saved copy)">
            <Logo />
          </a>
          <ThemeToggle />
        </div>
        <StatusLine state={state} online={online} fullPage={fullPage} sent={sent} />
      </header>
      <main id="main" className="mx-auto max-w-3xl px-4 py-4">
        {state.status === "loading" ? (
          <div className="flex justify-center py-12">
            <Spinner label="Opening the copy saved on this phone…" />
          </div>
        ) : state.status === "none" ? (
          <NoCopy online={online} />
        ) : (
          <>
            <ChangeAnswers answered={state.view.answered} onDismiss={() => void dismissAnswers(state.userId)} />
            <Screen screen={screen} state={state} online={online} />
            <ReachOutPrompt userId={state.userId} timezone={state.meta.timezone} />
          </>
        )}
      </main>
      <nav
        aria-label="Saved copy"
        className="fixed inset-x-0 bottom-0 z-30 border-t border-stone-200 bg-white pb-[env(safe-area-inset-bottom)] dark:border-stone-800 dark:bg-stone-900"
      >
        <ul className="mx-auto grid max-w-3xl grid-cols-4">
          {NAV.map((item) => {
            const current = item.screens.includes(screen.name);
            return (
              <li key={item.to}>
                <a
                  href={`#${item.to}`}
                  aria-current={current ? "page" : undefined}
                  className={`flex min-h-14 flex-col items-center justify-center gap-0.5 text-xs font-medium ${
                    current ? "text-brand-800 dark:text-brand-300" : "text-stone-600 dark:text-stone-400"
                  }`}
                >
                  <item.icon aria-hidden="true" className="h-5 w-5" />
                  {item.label}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}

/**
 * How many changes made offline have reached the server since this page last saw the connection go (or opened): the
 * copy's tally, kept by whoever sent them (this page or the service worker), so a round sent before is not claimed.
 */
function useSentCount(state: CopyState, online: boolean): number {
  const [since, setSince] = useState(() => Date.now());
  useEffect(() => {
    if (!online) setSince(Date.now());
  }, [online]);
  const tally = state.status === "ready" ? state.sent : null;
  return online && tally && tally.at >= since ? tally.count : 0;
}

function StatusLine({ state, online, fullPage, sent }: { state: CopyState; online: boolean; fullPage: string; sent: number }) {
  const saved = state.status === "ready" ? savedAtLabel(state.meta.savedAt, copyPrefs(state.meta)) : null;
  const waiting = state.status === "ready" ? state.view.pending.length : 0;
  const waitingText = waiting ? ` · ${waiting} ${waiting === 1 ? "change" : "changes"} waiting to send` : "";
  if (!online) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 bg-amber-100 px-4 py-2 text-sm font-medium text-amber-950 dark:bg-amber-950 dark:text-amber-100"
      >
        <CloudOff aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span>
          {saved ? `Offline — showing what was saved at ${saved}` : "Offline"}
          {waitingText}
        </span>
      </p>
    );
  }
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 bg-emerald-50 px-4 py-2 text-sm text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <span className="flex items-center gap-2">
        <Wifi aria-hidden="true" className="h-4 w-4 shrink-0" />
        {saved ? `Back online — this is the copy saved at ${saved}` : "Back online"}
        {waitingText}
        {sent ? ` · ${sent} ${sent === 1 ? "change" : "changes"} sent` : ""}
      </span>
      <a href={fullPage} className="font-semibold underline underline-offset-2">
        Open the full app
      </a>
    </div>
  );
}

function NoCopy({ online }: { online: boolean }) {
  return (
    <section className="py-8 text-center">
      <h1 className="text-xl font-bold">No copy saved on this phone</h1>
      <p className="mx-auto mt-2 max-w-md text-stone-600 dark:text-stone-300">
        Porchlight keeps a copy of your day for working without signal once you have signed in here with a connection. Signing out deletes it.
      </p>
      {online ? (
        <a href="/dashboard" className={buttonClass("primary", "mt-6")}>
          Open Porchlight
        </a>
      ) : (
        <p className="mt-4 text-stone-600 dark:text-stone-300">Open Porchlight again when you have a connection.</p>
      )}
    </section>
  );
}

function Screen({ screen, state, online }: { screen: FieldScreen; state: Extract<CopyState, { status: "ready" }>; online: boolean }) {
  switch (screen.name) {
    case "dashboard":
      return <DashboardScreen state={state} />;
    case "contacts":
      return <ContactsScreen state={state} initialQuery={screen.q} />;
    case "contact":
      return <ContactScreen state={state} id={screen.id} />;
    case "add-contact":
      return <AddContactScreen state={state} />;
    case "tasks":
      return <TasksScreen state={state} />;
    case "pipeline":
      return <PipelineScreen state={state} />;
    case "needs-server":
      return <NeedsServerScreen page={screen.page} path={screen.path} online={online} />;
  }
}
