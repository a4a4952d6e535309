import { Link } from "@remix-run/react";
import { Logo } from "./Logo";
import { ThemeToggle } from "./ui/ThemeToggle";

export function PublicHeader({ children }: { children?: React.ReactNode }) {
  return (
    <header className="mx-auto flex w-full max-w-6xl items-center justify-between gap-2 px-4 py-3">
      <Link to="/" className="rounded-md" aria-label="Porchlight home">
        <Logo />
      </Link>
      <div className="flex items-center gap-1">
        {children}
        <ThemeToggle />
      </div>
    </header>
  );
}
