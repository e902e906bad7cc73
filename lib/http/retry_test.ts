import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { retryAfterMs, retryWaitMs } from "./retry.ts";

const NOW = Date.parse("2025-01-01T00:00:00Z");

describe("retryAfterMs()", () => {
  const cases: [string, string | null, number | undefined][] = [
    ["reads whole seconds", "3", 3000],
    ["reads fractional seconds", "0.25", 250],
    ["reads an HTTP date in the future", "Wed, 01 Jan 2025 00:00:10 GMT", 10000],
    ["reads an HTTP date in the past as no wait", "Tue, 31 Dec 2024 23:00:00 GMT", 0],
    ["ignores a missing header", null, undefined],
    ["ignores a negative number", "-1", undefined],
    ["ignores garbage", "soon", undefined],
  ];
  for (const [name, header, expected] of cases) {
    it(name, () => assert.equal(retryAfterMs(header, NOW), expected));
  }
});

describe("retryWaitMs()", () => {
  const cases: [string, Parameters<typeof retryWaitMs>[0], number][] = [
    ["starts at the backoff base", { retry: 0, backoffMs: 100, maxWaitMs: 10000 }, 100],
    ["doubles each retry", { retry: 3, backoffMs: 100, maxWaitMs: 10000 }, 800],
    ["caps the backoff", { retry: 10, backoffMs: 100, maxWaitMs: 5000 }, 5000],
    ["prefers Retry-After", { retry: 3, backoffMs: 100, maxWaitMs: 10000, retryAfterMs: 0 }, 0],
    [
      "caps Retry-After",
      { retry: 0, backoffMs: 100, maxWaitMs: 5000, retryAfterMs: 3600000 },
      5000,
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(retryWaitMs(input), expected));
  }
});
