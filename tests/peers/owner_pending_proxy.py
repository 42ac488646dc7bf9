"""An HTTP proxy in front of a real PowerContext Server whose flushes are not yet settled.

For the paired comparison's settling test: the Server answers a flush 503 artifact_owner_pending while
another request has not yet recorded the owner of Memory it made, a race a test cannot make a real
Server lose on purpose. Listens on 127.0.0.1 on a free port, writes http://127.0.0.1:PORT to URL_FILE,
and relays every request to UPSTREAM unchanged, except that the first PENDING requests to POST
/v1/memory/flush (PENDING "all": every one) are answered 503 with PowerContext's error envelope, code
artifact_owner_pending. Each flush it sees is a line of LOG: "pending" or "relayed". Serves until killed.

usage: python3 tests/peers/owner_pending_proxy.py URL_FILE UPSTREAM PENDING LOG
"""

import json
import os
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

URL_FILE, UPSTREAM, PENDING, LOG = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
lock = threading.Lock()
flushes = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def pending(self):
        global flushes
        if self.command != "POST" or self.path != "/v1/memory/flush":
            return False
        with lock:
            flushes += 1
            held = PENDING == "all" or flushes <= int(PENDING)
            with open(LOG, "a", encoding="utf-8") as log:
                log.write("pending\n" if held else "relayed\n")
        return held

    def relay(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.pending():
            envelope = {"error": {"code": "artifact_owner_pending",
                                  "message": "Memory created by another request has no recorded owner yet"}}
            self.reply(503, [("Content-Type", "application/json")], json.dumps(envelope).encode())
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
        request = urllib.request.Request(UPSTREAM + self.path, data=body if body else None, headers=headers,
                                         method=self.command)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                self.reply(response.status, response.getheaders(), response.read())
        except urllib.error.HTTPError as error:
            self.reply(error.code, error.headers.items(), error.read())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = relay


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(URL_FILE + ".tmp", "w", encoding="utf-8") as f:
    f.write(f"http://127.0.0.1:{server.server_address[1]}")
os.replace(URL_FILE + ".tmp", URL_FILE)
server.serve_forever()
