// Imports bundled into an inline script by app/lib/inline-script.vite.ts.
declare module "*?inline-script" {
  const code: string;
  export default code;
}
