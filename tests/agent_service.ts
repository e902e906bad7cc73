/**
 * For tests: an agent service on a free local port, started before the
 * file's tests and closed after them, for the --agent-url transport.
 *
 * @module
 */
import { after, before } from "node:test";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Serves each POST's body to `handle`.
 *
 * @param handle answers one request, given its body (and the request, for its headers)
 * @returns the service's URL (known once the tests start)
 */
export function agentService(
  handle: (body: string, res: http.ServerResponse, req: http.IncomingMessage) => void,
): () => string {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => body += chunk);
    req.on("end", () => handle(body, res, req));
  });
  let url = "";
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/answer`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return () => url;
}

/**
 * A handler that answers every request with `reply(id, question)`, status 200.
 *
 * @param reply the reply text for a request's id and question
 * @returns the handler
 */
export function replying(
  reply: (id: string, question: string) => string,
): (body: string, res: http.ServerResponse) => void {
  return (body, res) => {
    const { id, question } = JSON.parse(body) as { id: string; question: string };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(reply(id, question));
  };
}
