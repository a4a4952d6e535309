// Each Playwright project signs in with its own copy of every e2e account, so the journeys can run at
// 375 px and again at 1280 px against one server without the second run finding the first one's contacts,
// deals, limits or sign-outs. The mobile project keeps the accounts as written in accounts.json.
// Plain JavaScript with no imports: scripts/serve-e2e.mjs (Node built-ins only) seeds with it too.

/** Projects other than "mobile" that run journeys with their own accounts. */
export const ACCOUNT_PROJECTS = ["desktop"];

/** The account `account` stands for in `project`: same password and state, another id and address. */
export function accountFor(account, project) {
  if (!ACCOUNT_PROJECTS.includes(project)) return account;
  const index = ACCOUNT_PROJECTS.indexOf(project) + 1;
  const [local, domain] = account.email.split("@");
  return {
    ...account,
    // The id's fourth group marks the project (8000 for mobile), so ids stay valid and unique.
    id: account.id.replace(/-8000-/, `-${(8000 + index).toString()}-`),
    email: `${local}-${project}@${domain}`,
  };
}
