// A small local fake of the Stripe HTTP API: only the endpoints Porchlight calls, with in-memory state and
// Stripe-shaped JSON. Tests point the real Stripe SDK at it (host/port/protocol) so requests cross real HTTP.
// Control endpoints under /__fake let a test seed objects and read what was asked.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";

export function startFakeStripe({ port = 0 } = {}) {
  const state = { customers: new Map(), sessions: new Map(), subscriptions: new Map(), failing: new Set(), portal: [], requests: [] };
  const id = (prefix) => `${prefix}_${randomBytes(8).toString("hex")}`;

  const routes = [
    [
      "POST",
      /^\/v1\/customers$/,
      (body) => {
        // Stripe refuses some addresses a basic pattern lets through; the fake refuses the .invalid TLD.
        if ((body.get("email") ?? "").endsWith(".invalid")) {
          return [
            400,
            {
              error: { type: "invalid_request_error", code: "email_invalid", param: "email", message: `Invalid email address: ${body.get("email")}` },
            },
          ];
        }
        const customer = {
          id: id("cus"),
          object: "customer",
          email: body.get("email"),
          metadata: { userId: body.get("metadata[userId]") },
          address: null,
          invoice_settings: { default_payment_method: null },
          payment_methods: [],
        };
        state.customers.set(customer.id, customer);
        return [200, customer];
      },
    ],
    [
      "GET",
      /^\/v1\/customers\/([\w]+)$/,
      (_body, [customerId], query) => {
        const customer = state.customers.get(customerId);
        if (!customer) return [404, { error: { type: "invalid_request_error", message: `No such customer: '${customerId}'` } }];
        const expand = query.getAll("expand[]").includes("invoice_settings.default_payment_method");
        const { payment_methods, ...rest } = customer;
        const pm = payment_methods[0] ?? null;
        return [200, { ...rest, invoice_settings: { default_payment_method: expand ? pm : (pm?.id ?? null) } }];
      },
    ],
    [
      "GET",
      /^\/v1\/payment_methods$/,
      (_body, _m, query) => {
        const customer = state.customers.get(query.get("customer"));
        return [200, { object: "list", data: customer?.payment_methods ?? [], has_more: false }];
      },
    ],
    [
      "POST",
      /^\/v1\/checkout\/sessions$/,
      (body) => {
        const session = {
          id: id("cs_test"),
          object: "checkout.session",
          mode: body.get("mode"),
          customer: body.get("customer"),
          client_reference_id: body.get("client_reference_id"),
          metadata: Object.fromEntries([...body].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v])),
          success_url: body.get("success_url"),
          cancel_url: body.get("cancel_url"),
          status: "open",
          subscription: null,
          params: Object.fromEntries(body),
        };
        session.url = `https://checkout.stripe.com/c/pay/${session.id}`;
        state.sessions.set(session.id, session);
        return [200, session];
      },
    ],
    [
      "GET",
      /^\/v1\/checkout\/sessions\/([\w]+)$/,
      (_body, [sessionId]) => {
        const session = state.sessions.get(sessionId);
        return session ? [200, session] : [404, { error: { type: "invalid_request_error", message: `No such checkout.session: '${sessionId}'` } }];
      },
    ],
    [
      "POST",
      /^\/v1\/billing_portal\/sessions$/,
      (body) => {
        const portal = { id: id("bps"), object: "billing_portal.session", customer: body.get("customer"), return_url: body.get("return_url") };
        portal.url = `https://billing.stripe.com/p/session/${portal.id}`;
        state.portal.push(portal);
        return [200, portal];
      },
    ],
    [
      "GET",
      /^\/v1\/subscriptions\/([\w]+)$/,
      (_body, [subscriptionId]) => {
        if (subscriptionId.startsWith("sub_down")) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
        const subscription = state.subscriptions.get(subscriptionId);
        return subscription
          ? [200, subscription]
          : [404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such subscription: '${subscriptionId}'` } }];
      },
    ],
    // A plan or seat change: the one item's price and quantity, the metadata and cancel_at_period_end, as
    // Stripe applies them.
    [
      "POST",
      /^\/v1\/subscriptions\/([\w]+)$/,
      (body, [subscriptionId]) => {
        const subscription = state.subscriptions.get(subscriptionId);
        if (!subscription)
          return [404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such subscription: '${subscriptionId}'` } }];
        if (state.failing.has(subscriptionId)) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
        const item = subscription.items.data[0];
        if (body.get("items[0][id]") && body.get("items[0][id]") !== item.id)
          return [400, { error: { type: "invalid_request_error", message: "No such subscription item" } }];
        const price = body.get("items[0][price]");
        if (price) item.price = { id: price, recurring: { interval: /yearly/.test(price) ? "year" : "month" } };
        const quantity = body.get("items[0][quantity]");
        if (quantity) item.quantity = Number(quantity);
        for (const [key, value] of body) if (key.startsWith("metadata[")) subscription.metadata[key.slice(9, -1)] = value;
        // Ending at the period's end (a team's former owner, ADR 0039), or taking that back.
        const cancel = body.get("cancel_at_period_end");
        if (cancel !== null) subscription.cancel_at_period_end = cancel === "true";
        return [200, subscription];
      },
    ],
    [
      "DELETE",
      /^\/v1\/subscriptions\/([\w]+)$/,
      (_body, [subscriptionId]) => {
        // A test makes Stripe unreachable for one subscription by its id.
        if (subscriptionId.startsWith("sub_down")) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
        if (subscriptionId.startsWith("sub_gone"))
          return [404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such subscription: '${subscriptionId}'` } }];
        return [200, { id: subscriptionId, object: "subscription", status: "canceled", canceled_at: Math.floor(Date.now() / 1000) }];
      },
    ],
    // Test controls.
    [
      "POST",
      /^\/__fake\/customers\/([\w]+)$/,
      (_body, [customerId], _q, json) => {
        state.customers.set(customerId, { id: customerId, object: "customer", metadata: {}, address: null, payment_methods: [], ...json });
        return [200, { ok: true }];
      },
    ],
    [
      "POST",
      /^\/__fake\/sessions\/([\w]+)\/complete$/,
      (_body, [sessionId], _q, json) => {
        const session = state.sessions.get(sessionId);
        if (!session) return [404, { error: { message: "no session" } }];
        Object.assign(session, { status: "complete", subscription: json.subscription ?? id("sub") });
        return [200, session];
      },
    ],
    ["GET", /^\/__fake\/requests$/, () => [200, state.requests]],
    [
      "POST",
      /^\/__fake\/subscriptions\/([\w]+)$/,
      (_body, [subscriptionId], _q, json) => {
        const price = json.price ?? "price_solo_monthly";
        state.subscriptions.set(subscriptionId, {
          id: subscriptionId,
          object: "subscription",
          customer: json.customer,
          status: json.status ?? "active",
          metadata: json.metadata ?? {},
          cancel_at_period_end: false,
          trial_end: null,
          items: {
            object: "list",
            data: [
              {
                id: `si_${subscriptionId}`,
                quantity: json.quantity ?? 1,
                current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400,
                price: { id: price, recurring: { interval: /yearly/.test(price) ? "year" : "month" } },
              },
            ],
          },
        });
        return [200, state.subscriptions.get(subscriptionId)];
      },
    ],
    // Stripe refuses changes to one subscription (an outage, as seen from that request) until told otherwise.
    [
      "POST",
      /^\/__fake\/subscriptions\/([\w]+)\/failing$/,
      (_body, [subscriptionId], _q, json) => {
        if (json.fail) state.failing.add(subscriptionId);
        else state.failing.delete(subscriptionId);
        return [200, { ok: true }];
      },
    ],
  ];

  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url, "http://fake");
      const isJson = (req.headers["content-type"] ?? "").includes("json");
      const body = new URLSearchParams(isJson ? "" : raw);
      if (!url.pathname.startsWith("/__fake")) {
        state.requests.push({
          method: req.method,
          path: url.pathname,
          body: Object.fromEntries(body),
          idempotencyKey: req.headers["idempotency-key"] ?? null,
          authorization: req.headers.authorization ?? null,
        });
      }
      const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
      const [status, payload] = route
        ? route[2](body, url.pathname.match(route[1]).slice(1), url.searchParams, isJson && raw ? JSON.parse(raw) : {})
        : [404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } }];
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
      res.end(JSON.stringify(payload));
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, port: server.address().port, state })));
}
