import * as z from "zod";
import { LEAD_API_MESSAGES, LeadApiSchema } from "./lead-api.server";

// The lead API's OpenAPI document, served at /api/v1/openapi.json (a stable address for Zapier, Make, or a developer's
// own client). The request body's schema is the same zod schema the endpoint checks with: one definition.

const error = { type: "object", properties: { error: { type: "string" } }, required: ["error"] };
const placed = (status: "created" | "attached") => ({
  type: "object",
  properties: {
    status: { type: "string", enum: [status] },
    contact: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, required: ["id", "name"] },
  },
  required: ["status", "contact"],
});

export function leadApiDocument(origin: string) {
  return {
    openapi: "3.0.3",
    info: {
      title: "Porchlight lead API",
      version: "1.0.0",
      description:
        "Send a lead into an agent's Porchlight account. Make a key in Porchlight under Settings → Lead sources → API keys and send it as a Bearer token. A key creates leads and nothing else.",
    },
    servers: [{ url: origin }],
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A key from Settings → Lead sources → API keys (pl_…)." } },
      schemas: {
        Lead: { ...z.toJSONSchema(LeadApiSchema, { io: "input", target: "openapi-3.0" }), description: "One lead. email or phone is required." },
      },
    },
    security: [{ apiKey: [] }],
    paths: {
      "/api/v1/leads": {
        post: {
          operationId: "createLead",
          summary: "Send a lead",
          description:
            "A new lead becomes a hot contact with the given source, a new-lead alert and its speed-to-lead timer from now. A lead whose e-mail or phone matches one of the agent's contacts is added to that contact's timeline as an enquiry instead. Send an Idempotency-Key to make a retry answer as the first call did.",
          parameters: [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              schema: { type: "string", maxLength: 200 },
              description: "1 to 200 printable ASCII characters, unique per lead (a Zap's run id, your form submission's id).",
            },
          ],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Lead" } } } },
          responses: {
            "201": { description: "A new lead was created.", content: { "application/json": { schema: placed("created") } } },
            "200": {
              description: "The lead was added to an existing contact as an enquiry.",
              content: { "application/json": { schema: placed("attached") } },
            },
            "400": {
              description: "The body is not a valid lead (fields says which and why), or the Idempotency-Key is malformed.",
              content: {
                "application/json": {
                  schema: { ...error, properties: { ...error.properties, fields: { type: "object", additionalProperties: { type: "string" } } } },
                },
              },
            },
            "401": { description: `${LEAD_API_MESSAGES.noKey} Or: ${LEAD_API_MESSAGES.badKey}`, content: { "application/json": { schema: error } } },
            "403": { description: "The account's subscription is not active.", content: { "application/json": { schema: error } } },
            "413": { description: "The body is too large.", content: { "application/json": { schema: error } } },
            "415": { description: "The body is not JSON (send Content-Type: application/json).", content: { "application/json": { schema: error } } },
            "429": {
              description: "Over 60 leads a minute with this key; Retry-After says when to try again.",
              content: { "application/json": { schema: error } },
            },
          },
        },
      },
    },
  };
}
