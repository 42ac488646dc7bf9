"""A fake PowerContext Server that answers in shapes no release uses.

For the tests of how pc-run-bub meets a Server it does not understand; every
real behaviour is tested against real Servers. Listens on 127.0.0.1 on a free
port, writes http://127.0.0.1:PORT to the file given, and serves until killed.
GET /openapi.json says version 9.9.9 and offers no scope creation, so no scope
is created; GET /health/ready answers {"status": "ready"};
POST /v1/memory/entries/list answers by FAKE_MODE:

  unknown-entry   one entry with text, kind and state but neither artifact nor citation
  no-entries      an object without an entries array
  same-cursor     an empty page whose next_cursor is the cursor it was sent (always "c1")
  no-openapi      (GET /openapi.json answers 404 instead)
  text-ready      (GET /health/ready answers 200 with a body that is not JSON instead)
  text-prepare    an empty listing; POST /v1/context/prepare answers 200 with a body that is not JSON

Fault modes (tests/faults.bats): the first listing (the baseline, before the
agent runs) is empty; what happens afterwards is the fault:

  error-5xx       every POST answers 503 with PowerContext's error envelope, the baseline too
  hang-final      the second listing (the final Memory) never answers
  truncate-final  the second listing declares more bytes than it sends, then closes
  die-final       the server exits before answering the second listing: later calls are refused

Anything else is a 404 with PowerContext's error envelope.

usage: python3 tests/peers/fake_server.py URL_FILE
"""

import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

MODE = os.environ.get("FAKE_MODE", "unknown-entry")
FINAL_FAULTS = ("hang-final", "truncate-final", "die-final")
LISTINGS = {
    "unknown-entry": {"entries": [{"id": 7, "text": "a fact", "kind": "fact", "state": "active"}]},
    "no-entries": {"items": []},
    "same-cursor": {"entries": [], "next_cursor": "c1"},
    "text-prepare": {"entries": []},
}
NOT_JSON = b"<html>502 from a proxy that is not PowerContext</html>"


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def not_json(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(NOT_JSON)))
        self.end_headers()
        self.wfile.write(NOT_JSON)

    def missing(self):
        self.answer(404, {"error": {"code": "not_found", "message": f"no {self.path} here"}})

    def do_GET(self):
        if self.path == "/openapi.json" and MODE != "no-openapi":
            self.answer(200, {"openapi": "3.1.0", "info": {"title": "fake", "version": "9.9.9"}, "paths": {}})
        elif self.path == "/health/ready" and MODE == "text-ready":
            self.not_json()
        elif self.path == "/health/ready":
            self.answer(200, {"status": "ready"})
        else:
            self.missing()

    def final_fault(self):
        if MODE == "hang-final":
            time.sleep(3600)
        elif MODE == "truncate-final":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"entries": [')
            self.wfile.flush()
            self.connection.close()
        else:
            os._exit(0)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        listing = self.path == "/v1/memory/entries/list"
        if MODE == "error-5xx":
            self.answer(503, {"error": {"code": "unavailable", "message": "the fake Server is failing on purpose"}})
        elif listing and MODE in FINAL_FAULTS:
            self.server.listings += 1
            if self.server.listings == 1:
                self.answer(200, {"entries": []})
            else:
                self.final_fault()
        elif listing and MODE in LISTINGS:
            self.answer(200, LISTINGS[MODE])
        elif self.path == "/v1/context/prepare" and MODE == "text-prepare":
            self.not_json()
        else:
            self.missing()

    def log_message(self, *args):
        pass


def main(argv):
    server = HTTPServer(("127.0.0.1", 0), Handler)
    server.listings = 0
    with open(argv[1] + ".tmp", "w") as out:
        out.write(f"http://127.0.0.1:{server.server_port}\n")
    os.replace(argv[1] + ".tmp", argv[1])
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
