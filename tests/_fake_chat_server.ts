/**
 * A fake OpenAI-compatible chat-completions server for the judge's tests,
 * with replies scripted per test. No test calls a real provider.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted response; the last one repeats once the script runs out. */
export interface Scripted {
  readonly status?: number;
  /** The assistant's reply text, wrapped in a chat-completions body. */
  readonly reply?: string;
  /** A raw body instead of a chat-completions one. */
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** Answer only after this long (the test's teardown cuts it short). */
  readonly delayMs?: number;
  /**
   * Hang up instead of answering: `"before"` closes the connection before any
   * response, `"during"` after the headers and part of the body.
   */
  readonly hangUp?: "before" | "during";
}

/** A request the server saw. */
export interface Seen {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

/** A running fake server. */
export interface FakeServer {
  /** The server's base URL, e.g. http://127.0.0.1:12345/v1. */
  readonly url: string;
  readonly requests: Seen[];
  close(): Promise<void>;
}

/**
 * Starts a fake chat-completions server on 127.0.0.1 (a free port). Each
 * request gets the next scripted response; the last one repeats.
 *
 * @param script the responses, in order
 * @returns the server's base URL, the requests it saw, and close()
 */
export async function fakeServer(script: Scripted[]): Promise<FakeServer> {
  const requests: Seen[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const pending = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    // run --judge-url checks once that the endpoint accepts connections (a
    // GET); as a real chat-completions server does, refuse the method.
    if (req.method !== "POST") {
      res.writeHead(405, { connection: "close" });
      return void res.end();
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(text) });
      const step = script[Math.min(requests.length - 1, script.length - 1)]!;
      const send = () => {
        pending.delete(res);
        if (res.writableEnded || res.destroyed) return;
        if (step.hangUp === "before") return void res.socket?.destroy();
        const body = step.body ?? JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: step.reply ?? "" } }],
        });
        res.writeHead(step.status ?? 200, {
          "content-type": "application/json",
          connection: "close",
          ...(step.hangUp === "during" ? { "content-length": String(body.length + 100) } : {}),
          ...step.headers,
        });
        if (step.hangUp !== "during") return void res.end(body);
        res.write(body.slice(0, 10));
        setTimeout(() => res.socket?.destroy(), 10);
      };
      if (step.delayMs === undefined) return send();
      pending.add(res);
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, step.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeServer = {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of pending) res.destroy();
      pending.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
