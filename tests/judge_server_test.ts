/**
 * The built-in judge against a fake chat-completions server on 127.0.0.1,
 * with replies scripted per test. No test calls a real provider.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CheckResult } from "../lib/eval/check.ts";
import type { TestCase } from "../lib/eval/case.ts";
import { Trace } from "../lib/eval/trace.ts";
import { JudgeError, UsageError } from "../lib/errors.ts";
import { judgeChecks, openAiJudge, type OpenAiJudgeOptions } from "../lib/judge/mod.ts";
import { type FakeServer, fakeServer, type Scripted } from "./_fake_chat_server.ts";

const servers: FakeServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function serve(script: Scripted[]): Promise<FakeServer> {
  const server = await fakeServer(script);
  servers.push(server);
  return server;
}

/** Fast limits so retries and timeouts take milliseconds. */
function judgeFor(server: FakeServer, options: Partial<OpenAiJudgeOptions> = {}) {
  return openAiJudge({
    url: server.url,
    model: "test-model",
    apiKey: "sk-test",
    timeoutMs: 2_000,
    retries: 2,
    backoffMs: 1,
    maxWaitMs: 20,
    ...options,
  });
}

async function rejection(promise: unknown): Promise<JudgeError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof JudgeError, `expected a JudgeError, got ${error}`);
    return error;
  }
  assert.fail("expected the judge to throw");
}

const testCase: TestCase = {
  id: "delivered-amount",
  question: "What is the total amount of delivered orders?",
  reference_sql: "SELECT SUM(amount) FROM orders WHERE status = 'DELIVERED'",
  tags: [],
  ordered: false,
  precision: 2,
};
const trace = Trace.simple(testCase.question, {
  sql: "SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'",
  rows: [{ total: 2000 }],
  answer: "The delivered orders add up to 2000.",
});

async function runChecks(judge: ReturnType<typeof openAiJudge>): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of judgeChecks()) {
    results.push(
      await check.run(trace, testCase, {
        judge,
        referenceRows: [{ "SUM(amount)": 2000 }],
      }) as CheckResult,
    );
  }
  return results;
}

describe("openAiJudge() against a chat-completions server", () => {
  it("posts the prompt as one user message with temperature 0 and the API key", async () => {
    const server = await serve([{ reply: "PASS\nfine" }]);
    const reply = await judgeFor(server)("Is 2 equal to 2?");
    assert.equal(reply, "PASS\nfine");
    assert.equal(server.requests.length, 1);
    const [seen] = server.requests;
    assert.equal(seen!.path, "/v1/chat/completions");
    assert.equal(seen!.headers.authorization, "Bearer sk-test");
    assert.deepEqual(seen!.body, {
      model: "test-model",
      messages: [{ role: "user", content: "Is 2 equal to 2?" }],
      temperature: 0,
      stream: false,
    });
  });

  it("sends no Authorization header without a key", async () => {
    const server = await serve([{ reply: "PASS" }]);
    await judgeFor(server, { apiKey: undefined })("p");
    assert.equal(server.requests[0]!.headers.authorization, undefined);
  });

  it("accepts the full .../chat/completions URL, query string kept", async () => {
    const server = await serve([{ reply: "PASS" }]);
    await judgeFor(server, { url: `${server.url}/chat/completions?api-version=1` })("p");
    assert.equal(server.requests[0]!.path, "/v1/chat/completions?api-version=1");
  });

  it("makes each judge check PASS on a PASS reply, with the judge's reason", async () => {
    const server = await serve([{ reply: "**PASS**\nThe answer says 2000, as the rows do." }]);
    const results = await runChecks(judgeFor(server));
    assert.deepEqual(results.map((r) => [r.name, r.stage, r.status, r.detail]), [
      ["reference_answer", "answer", "PASS", "The answer says 2000, as the rows do."],
      ["faithful", "answer", "PASS", "The answer says 2000, as the rows do."],
      ["relevant", "answer", "PASS", "The answer says 2000, as the rows do."],
    ]);
    assert.equal(server.requests.length, 3, "one request per judge check");
  });

  it("makes the checks FAIL on a FAIL reply", async () => {
    const server = await serve([{ reply: '{"verdict":"fail","reason":"wrong total"}' }]);
    const results = await runChecks(judgeFor(server));
    assert.deepEqual(results.map((r) => [r.status, r.detail]), [
      ["FAIL", "wrong total"],
      ["FAIL", "wrong total"],
      ["FAIL", "wrong total"],
    ]);
  });

  it("makes the checks ERROR on a garbage reply, showing its first line", async () => {
    const server = await serve([{ reply: "As an AI model I cannot say.\nSorry." }]);
    const results = await runChecks(judgeFor(server));
    for (const result of results) {
      assert.equal(result.status, "ERROR");
      assert.equal(
        result.detail,
        "judge reply not understood (expected PASS or FAIL on the first line): As an AI model I cannot say.",
      );
    }
  });

  const retried: [string, Scripted[], number][] = [
    ["retries a 429 and honours Retry-After in seconds", [
      {
        status: 429,
        body: '{"error":{"message":"Rate limit reached"}}',
        headers: { "retry-after": "0" },
      },
      { reply: "PASS\nok" },
    ], 2],
    ["retries a 429 with Retry-After as an HTTP date", [
      {
        status: 429,
        body: "slow down",
        headers: { "retry-after": new Date(Date.now() - 1000).toUTCString() },
      },
      { reply: "PASS\nok" },
    ], 2],
    ["caps a Retry-After that asks for an hour", [
      { status: 429, body: "slow down", headers: { "retry-after": "3600" } },
      { reply: "PASS\nok" },
    ], 2],
    ["retries 5xx with backoff", [
      { status: 502, body: "bad gateway" },
      { status: 503, body: "busy" },
      { reply: "PASS\nok" },
    ], 3],
  ];
  for (const [name, script, requests] of retried) {
    it(name, async () => {
      const server = await serve(script);
      assert.equal(await judgeFor(server)("p"), "PASS\nok");
      assert.equal(server.requests.length, requests);
    });
  }

  it("gives up on 500 every time after its retries, and the check reports ERROR", async () => {
    const server = await serve([{ status: 500, body: '{"error":"model crashed"}' }]);
    const judge = judgeFor(server, { retries: 2 });
    const error = await rejection(judge("p"));
    assert.equal(server.requests.length, 3, "the first try and two retries");
    assert.equal(error.status, 500);
    assert.match(
      error.message,
      /kept failing \(500 Internal Server Error: model crashed\) after 3 attempts: the server is failing; try again later$/,
    );
    const [result] = await runChecks(judge);
    assert.equal(result!.status, "ERROR");
    assert.match(
      result!.detail,
      /^judge failed: Judge endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions kept failing/,
    );
  });

  it("gives up on a reply slower than the timeout, without retrying, as ERROR", async () => {
    const server = await serve([{ reply: "PASS", delayMs: 10_000 }]);
    const judge = judgeFor(server, { timeoutMs: 50 });
    const error = await rejection(judge("p"));
    assert.match(error.message, /did not answer within 50 ms/);
    assert.equal(server.requests.length, 1);
    const results = await runChecks(judge);
    assert.deepEqual(results.map((r) => r.status), ["ERROR", "ERROR", "ERROR"]);
    assert.match(results[0]!.detail, /^judge failed: .*did not answer within 50 ms/);
  });

  const refused: [string, Scripted, RegExp][] = [
    [
      "401 as one clear error about the API key",
      { status: 401, body: '{"error":{"message":"Incorrect API key provided"}}' },
      /refused the API key \(401 Unauthorized: Incorrect API key provided\): set DBAGENTEVAL_JUDGE_API_KEY or OPENAI_API_KEY/,
    ],
    [
      "404 as one clear error about the URL and the model",
      { status: 404, body: '{"error":"model \\"test-model\\" not found"}' },
      /was not found \(404 Not Found: model "test-model" not found\): check the judge URL .* and that model "test-model" exists there/,
    ],
    [
      "400 as the server's message",
      { status: 400, body: '{"error":{"message":"context length exceeded"}}' },
      /rejected the request \(400 Bad Request: context length exceeded\)/,
    ],
  ];
  for (const [name, step, message] of refused) {
    it(`reports ${name}, without retrying`, async () => {
      const server = await serve([step, { reply: "PASS" }]);
      const error = await rejection(judgeFor(server)("p"));
      assert.match(error.message, message);
      assert.equal(error.status, step.status);
      assert.equal(server.requests.length, 1);
    });
  }

  it("fails every later call at once after a 401, without asking the server again", async () => {
    const server = await serve([{ status: 401, body: "no" }, { reply: "PASS" }]);
    const judge = judgeFor(server);
    const first = await rejection(judge("p"));
    const results = await runChecks(judge);
    assert.deepEqual(results.map((r) => [r.status, r.detail]), [
      ["ERROR", `judge failed: ${first.message}`],
      ["ERROR", `judge failed: ${first.message}`],
      ["ERROR", `judge failed: ${first.message}`],
    ]);
    assert.equal(server.requests.length, 1);
  });

  it("asks only once when calls in flight meet a 401", async () => {
    const server = await serve([{ status: 401, body: "no" }, { reply: "PASS" }]);
    const judge = judgeFor(server);
    const errors = await Promise.all([judge("a"), judge("b"), judge("c")].map(rejection));
    assert.equal(server.requests.length, 1);
    assert.equal(new Set(errors).size, 1, "the same error for every call");
  });

  it("answers calls in flight together once the endpoint has answered", async () => {
    const server = await serve([{ reply: "PASS" }]);
    const judge = judgeFor(server);
    await judge("first");
    assert.deepEqual(await Promise.all([judge("a"), judge("b")]), ["PASS", "PASS"]);
    assert.equal(server.requests.length, 3);
  });

  const malformed: [string, Scripted, RegExp][] = [
    ["a body that is not JSON", { body: "<html>hello</html>" }, /not JSON: "<html>hello<\/html>"/],
    ["JSON without choices", { body: '{"ok":true}' }, /without choices\[0\]\.message\.content/],
    [
      "an error body",
      { body: '{"error":{"message":"Upstream model overloaded","code":502}}' },
      /answered with an error: Upstream model overloaded$/,
    ],
    [
      "a refusal",
      { body: '{"choices":[{"message":{"content":null,"refusal":"I cannot help"}}]}' },
      /refused: I cannot help/,
    ],
  ];
  for (const [name, step, message] of malformed) {
    it(`reports ${name} from a 200`, async () => {
      const server = await serve([step]);
      assert.match((await rejection(judgeFor(server)("p"))).message, message);
    });
  }

  it("joins a reply given as content parts", async () => {
    const server = await serve([{
      body:
        '{"choices":[{"message":{"content":[{"type":"text","text":"FAIL\\n"},{"type":"text","text":"no"}]}}]}',
    }]);
    assert.equal(await judgeFor(server)("p"), "FAIL\nno");
  });

  it("retries a refused connection, then gives up with the reason", async () => {
    const server = await serve([{ reply: "PASS" }]);
    await server.close();
    const error = await rejection(judgeFor(server, { retries: 1 })("p"));
    assert.match(error.message, /kept failing \(could not reach it: .*\) after 2 attempts/);
    assert.match(
      error.message,
      /check that the server is running and that the judge URL is right$/,
    );
  });

  it("advises a lower concurrency only when the endpoint limits the rate (429)", async () => {
    const server = await serve([{ status: 429, body: '{"error":"slow down"}' }]);
    const error = await rejection(judgeFor(server, { retries: 0 })("p"));
    assert.match(error.message, /429.*lower --judge-concurrency, or try later$/);
  });
});

describe("openAiJudge() when the connection fails", () => {
  it("names the reason a refused connection failed, not only 'fetch failed'", async () => {
    const server = await serve([{ reply: "PASS" }]);
    await server.close();
    const error = await rejection(judgeFor(server, { retries: 0 })("p"));
    assert.match(error.message, /could not reach it: .*refused/i);
  });

  const broken: [string, Scripted, RegExp][] = [
    [
      "a server that hangs up before answering",
      { hangUp: "before" },
      /could not reach it: .*(closed|reset)/i,
    ],
    [
      "a server that hangs up in the middle of its reply",
      { hangUp: "during" },
      /the connection broke during the reply: \S/,
    ],
  ];
  for (const [name, step, message] of broken) {
    it(`retries ${name}, then says so`, async () => {
      const server = await serve([step]);
      const error = await rejection(judgeFor(server, { retries: 1 })("p"));
      assert.match(error.message, message);
      assert.match(error.message, /after 2 attempts/);
      assert.equal(server.requests.length, 2);
    });

    it(`answers after ${name} once`, async () => {
      const server = await serve([step, { reply: "FAIL\nno" }]);
      assert.equal(await judgeFor(server)("p"), "FAIL\nno");
      assert.equal(server.requests.length, 2);
    });
  }
});

describe("openAiJudge() options", () => {
  const urls: [string, string, string][] = [
    [
      "a base URL ending in /v1",
      "http://localhost:11434/v1",
      "http://localhost:11434/v1/chat/completions",
    ],
    [
      "a base URL with a trailing slash",
      "https://api.openai.com/v1/",
      "https://api.openai.com/v1/chat/completions",
    ],
    ["a bare host", "http://localhost:8080", "http://localhost:8080/v1/chat/completions"],
    [
      "a full URL with a trailing slash",
      "https://api.openai.com/v1/chat/completions/",
      "https://api.openai.com/v1/chat/completions",
    ],
    [
      "an Azure deployment URL",
      "https://x.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21",
      "https://x.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21",
    ],
  ];
  for (const [name, url, expected] of urls) {
    it(`posts to ${name} + /chat/completions as needed`, async () => {
      const { chatCompletionsUrl } = await import("../lib/judge/mod.ts");
      assert.equal(chatCompletionsUrl(url).href, expected);
    });
  }

  const bad: [string, OpenAiJudgeOptions, RegExp][] = [
    ["a URL that does not parse", { url: "localhost:11434", model: "m" }, /must start with http/],
    ["text that is not a URL", { url: "not a url", model: "m" }, /Invalid judge URL "not a url"/],
    ["an empty model", { url: "http://localhost/v1", model: " " }, /needs a model name/],
    [
      "a negative retry count",
      { url: "http://localhost/v1", model: "m", retries: -1 },
      /retries: -1/,
    ],
    ["a zero timeout", { url: "http://localhost/v1", model: "m", timeoutMs: 0 }, /timeoutMs: 0/],
    [
      "a fractional retry count",
      { url: "http://localhost/v1", model: "m", retries: 1.5 },
      /retries: 1\.5; it must be a whole number/,
    ],
  ];
  for (const [name, options, message] of bad) {
    it(`refuses ${name} with a UsageError`, () => {
      assert.throws(() => openAiJudge(options), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
