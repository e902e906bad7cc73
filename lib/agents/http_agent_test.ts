import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { defineCase } from "../eval/cases.ts";
import { runSuite } from "../eval/suite.ts";
import { UsageError } from "../errors.ts";
import { parseHeaders } from "./headers.ts";
import { httpAgent } from "./http_agent.ts";
import { agentService } from "../../tests/agent_service.ts";

/** What the fake agent service does for a question: the status and body of each attempt. */
const SCRIPTS: Record<
  string,
  { status: number; body: string; headers?: Record<string, string> }[]
> = {
  "busy then fine": [
    { status: 503, body: "overloaded", headers: { "retry-after": "0" } },
    { status: 429, body: '{"error": "slow down"}', headers: { "retry-after": "0" } },
  ],
  "refused": [{ status: 400, body: "question too long\nsecond line" }],
  "always 500": [
    { status: 500, body: "db down" },
    { status: 500, body: "db down" },
    { status: 500, body: "db down" },
  ],
  "not json": [{ status: 200, body: "<html>hello</html>" }],
  // What Python's json.dumps writes for float("nan") and for tuples.
  "nan": [{ status: 200, body: '{"id": "nan", "rows": [{"n": NaN}]}' }],
  "tuples": [{ status: 200, body: '{"id": "tuples", "rows": [[1, 2]]}' }],
  "all null": [{
    status: 200,
    body: '{"id": "all-null", "sql": null, "rows": null, "answer": null}',
  }],
};
const attempts = new Map<string, number>();
const seen: { headers: http.IncomingHttpHeaders; body: unknown }[] = [];

const url = agentService((text, res, req) => {
  const body = JSON.parse(text) as { id: string; question: string };
  seen.push({ headers: req.headers, body });
  const n = attempts.get(body.question) ?? 0;
  attempts.set(body.question, n + 1);
  if (body.question === "hang") return; // never answers
  const step = SCRIPTS[body.question]?.[n];
  if (step !== undefined) {
    res.writeHead(step.status, step.headers ?? {});
    return res.end(step.body);
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ id: body.id, sql: "SELECT 2 AS n", rows: [{ n: 2 }], answer: "2" }));
});

describe("httpAgent()", () => {
  it("posts each case's request with the headers, and retries 429 and 5xx", async () => {
    const agent = httpAgent({ url: url(), headers: { authorization: "Bearer abc" }, backoffMs: 1 });
    const cases = [
      defineCase({ id: "one", question: "fine", tags: ["t"], expect: { rows: [{ n: 2 }] } }),
      defineCase({ question: "busy then fine", expect: { rows: [{ n: 2 }] } }),
    ];
    const result = await runSuite(cases, agent, { concurrency: 1 });
    assert.deepEqual(result.cases.map((c) => c.verdict), ["PASS", "PASS"]);
    assert.equal(attempts.get("busy then fine"), 3);
    const first = seen.find((s) => (s.body as { id: string }).id === "one")!;
    assert.deepEqual(first.body, { id: "one", question: "fine", context: { tags: ["t"] } });
    assert.equal(first.headers["authorization"], "Bearer abc");
    assert.equal(first.headers["content-type"], "application/json");
  });

  const errors: [string, RegExp][] = [
    ["refused", /answered 400 Bad Request: question too long$/],
    ["always 500", /kept failing \(500 Internal Server Error: db down\) after 3 attempts/],
    ["not json", /a body that is not JSON: "<html>hello<\/html>"/],
    ["hang", /timed out after 0\.3 s: the agent did not finish/],
    ["nan", /reply holds NaN, which is not JSON \(Python's json\.dumps .*send null instead/],
    [
      "tuples",
      /^reply\.rows\[0\] is a list of values and the reply has no "columns": add "columns"/,
    ],
    ["all null", /^the agent's reply has no sql, rows, answer or error .*in "rows"/],
  ];
  for (const [question, message] of errors) {
    it(`makes "${question}" an ERROR for its case`, async () => {
      const agent = httpAgent({ url: url(), retries: 2, backoffMs: 1 });
      const result = await runSuite([defineCase({ question })], agent, { timeoutMs: 300 });
      assert.equal(result.cases[0]!.verdict, "ERROR");
      assert.match(result.cases[0]!.error ?? "", message);
    });
  }

  it("retries a refused connection, then says it could not reach the agent", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const agent = httpAgent({ url: `http://127.0.0.1:${port}/`, retries: 1, backoffMs: 1 });
    const result = await runSuite([defineCase({ question: "q" })], agent);
    assert.match(
      result.cases[0]!.error ?? "",
      /kept failing \(could not reach it: .*\) after 2 attempts/,
    );
  });

  it("refuses a URL that is not http(s)", () => {
    assert.throws(() => httpAgent({ url: "ftp://x/answer" }), UsageError);
    assert.throws(() => httpAgent({ url: "localhost:8000" }), UsageError);
  });
});

describe("parseHeaders()", () => {
  it("reads Name: value lines, later ones winning, names in lower case", () => {
    const base = parseHeaders(["Authorization: Bearer env", "", "X-Team: data"], "env");
    assert.deepEqual(parseHeaders(["authorization: Bearer flag"], "--agent-header", base), {
      authorization: "Bearer flag",
      "x-team": "data",
    });
  });

  it("refuses a header without a colon without echoing it (it may be a secret)", () => {
    assert.throws(
      () => parseHeaders(["Bearer s3cret"], "--agent-header"),
      (e: unknown) =>
        e instanceof UsageError && /Name: value/.test(e.message) && !e.message.includes("s3cret"),
    );
  });
});
