// The inline script of /auth, a page served without React (ADR 0011): bundled into one classic script
// (app/lib/inline-script.vite.ts). It enhances the form and registers the app's service worker, as the app's
// pages do, so the installed app is ready from the sign-in page on.
import { registerServiceWorker } from "~/lib/sw-register";
import { enhanceAuthForm } from "./enhance-auth-form";

const form = document.querySelector<HTMLFormElement>("form[data-auth-form]");
if (form) enhanceAuthForm(form);
registerServiceWorker();
