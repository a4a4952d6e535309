import { ArrowUp } from "lucide-react";
import { useEffect, useState } from "react";

/** Appears once the page has scrolled past `after` px (spec: 300) and takes the reader back to the top. */
export function ScrollToTop({ after = 300, className = "" }: { after?: number; className?: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > after);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [after]);
  if (!shown) return null;
  return (
    <button
      type="button"
      onClick={() => {
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
        // Keyboard users continue from the top too, not from a button that has gone.
        const heading = document.querySelector<HTMLElement>("main h1");
        if (heading) {
          heading.tabIndex = -1;
          heading.focus({ preventScroll: true });
        }
      }}
      className={`fixed z-30 flex h-12 w-12 items-center justify-center rounded-full border border-stone-300 bg-white text-stone-800 shadow-lg hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-800 dark:text-stone-100 dark:hover:bg-stone-700 ${className}`}
    >
      <ArrowUp aria-hidden="true" className="h-5 w-5" />
      <span className="sr-only">Scroll to top</span>
    </button>
  );
}
