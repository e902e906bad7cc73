#!/usr/bin/env python3
"""The Chinook example agent as an HTTP service, for dbagenteval's --agent-url.

It serves the same agent as examples/python_agent/agent.py (same answers, same
mistakes): each case is one POST of the request JSON,

    {"id": "genres", "question": "How many genres are there?", "context": {"tags": [...]}}

answered with the reply JSON (docs/agent-protocol.md):

    {"id": "genres", "stages": [...]}

Standard library only. Start it, then run the cases against it:

    python3 examples/http_agent/server.py --port 8000 &
    dbagenteval run examples/chinook/cases.yaml --agent-url http://127.0.0.1:8000/answer \\
        --db examples/chinook/Chinook_Sqlite.sqlite

With --token SECRET it answers only requests that carry
"Authorization: Bearer SECRET" (pass it with --agent-header, or in the
DBAGENTEVAL_AGENT_HEADERS environment variable). With --port 0 it picks a
free port and prints it on its first line: "listening on http://127.0.0.1:PORT/answer".
"""
import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python_agent"))
from agent import answer  # noqa: E402  (the same agent as over --agent-cmd)


class Handler(BaseHTTPRequestHandler):
    token = None

    def do_POST(self):
        if self.path != "/answer":
            return self.reply(404, {"error": f"no such endpoint {self.path}; POST to /answer"})
        if self.token is not None and self.headers.get("Authorization") != f"Bearer {self.token}":
            return self.reply(401, {"error": "missing or wrong bearer token"})
        try:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length))
            case_id, question = request["id"], request["question"]
        except (ValueError, KeyError, TypeError) as error:
            return self.reply(400, {"error": f"bad request: {error}"})
        self.reply(200, {"id": case_id, "stages": answer(question)})

    def reply(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # one line per request on stderr
        sys.stderr.write(f"{self.address_string()} {format % args}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--token", help="require Authorization: Bearer TOKEN")
    options = parser.parse_args()
    Handler.token = options.token
    server = ThreadingHTTPServer((options.host, options.port), Handler)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}/answer", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
