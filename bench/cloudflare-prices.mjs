// Cloudflare's published prices on Workers Paid (USD), as read on 2026-11-27 from the pages named beside each (ADR 0061
// lists them again). One place for every price the bench's cost of 1,000 agents uses (bench/cost.mjs); when a page
// changes, change it here and in the ADR. "included" is the monthly allowance of the account before the price applies.

/** The Workers Paid plan itself, per account and month: developers.cloudflare.com/workers/platform/pricing/ */
export const WORKERS_PAID_MONTHLY = 5;

export const PRICES = {
  // developers.cloudflare.com/workers/platform/pricing/ (Standard usage model); the same figures on
  // developers.cloudflare.com/workflows/reference/pricing/, which bills Workflows as Workers Standard.
  workerRequests: { included: 10_000_000, perMillion: 0.3, page: "developers.cloudflare.com/workers/platform/pricing/" },
  workerCpuMs: { included: 30_000_000, perMillion: 0.02, page: "developers.cloudflare.com/workers/platform/pricing/" },
  // developers.cloudflare.com/d1/platform/pricing/
  d1RowsRead: { included: 25_000_000_000, perMillion: 0.001, page: "developers.cloudflare.com/d1/platform/pricing/" },
  d1RowsWritten: { included: 50_000_000, perMillion: 1.0, page: "developers.cloudflare.com/d1/platform/pricing/" },
  d1StorageGb: { included: 5, perGbMonth: 0.75, page: "developers.cloudflare.com/d1/platform/pricing/" },
  // blog.cloudflare.com/workers-kv-free-tier/ ($0.50 per million reads, $5.00 per million writes, $0.50 per GB); the
  // paid allowances (10 million reads, 1 million writes, 1 GB) as summarised from developers.cloudflare.com/kv/platform/pricing/.
  kvReads: { included: 10_000_000, perMillion: 0.5, page: "developers.cloudflare.com/kv/platform/pricing/" },
  kvWrites: { included: 1_000_000, perMillion: 5.0, page: "developers.cloudflare.com/kv/platform/pricing/" },
  // developers.cloudflare.com/r2/pricing/ (Standard storage)
  r2StorageGb: { included: 10, perGbMonth: 0.015, page: "developers.cloudflare.com/r2/pricing/" },
  r2ClassA: { included: 1_000_000, perMillion: 4.5, page: "developers.cloudflare.com/r2/pricing/" },
  r2ClassB: { included: 10_000_000, perMillion: 0.36, page: "developers.cloudflare.com/r2/pricing/" },
  // developers.cloudflare.com/queues/pricing/: an operation per 64 KB written, read or deleted; a delivered message
  // takes 3 (write, read, delete).
  queueOperations: { included: 1_000_000, perMillion: 0.4, page: "developers.cloudflare.com/queues/pricing/" },
  // developers.cloudflare.com/durable-objects/platform/pricing
  durableObjectRequests: { included: 1_000_000, perMillion: 0.15, page: "developers.cloudflare.com/durable-objects/platform/pricing" },
  // developers.cloudflare.com/workflows/reference/pricing/: requests and CPU as Workers (above), storage of its own.
  workflowStorageGb: { included: 1, perGbMonth: 0.2, page: "developers.cloudflare.com/workflows/reference/pricing/" },
};

/** Operations a Queues message costs when delivered first time (developers.cloudflare.com/queues/pricing/). */
export const QUEUE_OPERATIONS_PER_MESSAGE = 3;

/** The month's charge for `amount` units of a metered price: only what is over the allowance is billed. */
export function charge(price, amount) {
  const over = Math.max(0, amount - price.included);
  return "perMillion" in price ? (over / 1_000_000) * price.perMillion : over * price.perGbMonth;
}
