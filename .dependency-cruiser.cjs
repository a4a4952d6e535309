// The layers of the app point one way (ARCHITECTURE.md, "Layers point one way"): `npm run deps`, and a stage of
// `npm test`. Top to bottom:
//
//   workers/         entry points: the Worker (fetch, cron, Durable Objects), the /api Hono sub-apps, the service
//                    worker. They may import anything in app/; nothing in app/ imports them.
//   app/routes/      Remix route modules: may import modules, components, lib and db. Only Remix loads a route, so
//                    no other file imports one (a route may import a sibling route, as Remix layouts share loaders).
//   app/modules/     the domains: may import other modules, app/components, lib and db; never a route.
//   app/components/  shared, feature-free UI (design-system primitives, the shell, error pages): may import lib and
//                    other shared components, never a feature module, a route or the database.
//   app/lib/         cross-cutting helpers (env, clock, dates, cookies, format…): may import db (its types and
//                    enums), never a module, a component or a route.
//   app/db/          drizzle tables and the database client: the bottom; imports nothing else of the app.
//
// No circles anywhere, type-only imports included: `import type` costs nothing at run time, but a type circle still
// ties two files so neither can be read, moved or tested without the other (the fix is the same as for a value
// circle: the shared type moves to its own file, below both).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle ties its files together: move the shared piece into its own file, in the lower layer.",
      from: {},
      to: { circular: true },
    },
    {
      name: "app-not-to-workers",
      severity: "error",
      comment:
        "workers/ are entry points: app/ never imports them (move what is shared into app/). The one exception is the server build's entry, app/entry.server.tsx, which carries the Worker's code (workers/worker.ts) into the one build so no module is bundled twice (ADR 0052).",
      from: { path: "^app/", pathNot: "^app/entry\\.server\\.tsx$" },
      to: { path: "^workers/" },
    },
    {
      name: "routes-only-from-remix",
      severity: "error",
      comment: "Only Remix loads a route module: what a route and another file share lives in a module or lib.",
      from: { path: "^(app/(modules|components|lib|db)|workers)/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "components-not-to-features",
      severity: "error",
      comment: "app/components is shared, feature-free UI: a piece that needs a feature belongs in app/modules/<domain>/components.",
      from: { path: "^app/components/" },
      to: { path: "^app/(modules|routes|db)/" },
    },
    {
      name: "lib-not-up",
      severity: "error",
      comment: "app/lib is below the modules and the UI: what it needs from one moves down into lib.",
      from: { path: "^app/lib/" },
      to: { path: "^app/(modules|components|routes)/" },
    },
    {
      name: "db-is-the-bottom",
      severity: "error",
      comment: "app/db holds the tables and the client: it imports nothing else of the app.",
      from: { path: "^app/db/" },
      to: { path: "^app/(modules|components|routes|lib)/" },
    },
    {
      name: "ui-not-to-server",
      severity: "error",
      comment: "React components run in the browser too: they never import a *.server file (the route's loader passes the data).",
      from: { path: "(^app/components/|/components/).+\\.tsx$" },
      // A type of the loader's data may come from there: it is erased before the browser bundle is built.
      to: { path: "\\.server\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "not-to-tests",
      severity: "error",
      comment: "The app never imports test code (factories, fakes, test files).",
      from: { path: "^(app|workers)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "(^tests/|\\.test\\.tsx?$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|node_modules|\\.wrangler)/" },
    // Type-only imports are dependencies too (see the top): they count for circles and layers.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
