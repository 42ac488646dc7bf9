"""A fake of Harbor's registry service, for the tests of what pc-run-bub checks before fetching from it.

Harbor's own registry client (harbor.registry.client.harbor) asks a Supabase project, at HARBOR_SUPABASE_URL, for
a dataset by calling its get_dataset function: POST /rest/v1/rpc/get_dataset with {"p_name", "p_version"}. This
answers that one call from the datasets given as NAME@VERSION=TASK[,TASK...] arguments (each task a local path,
no git source) and with PostgREST's empty answer for any other dataset, which Harbor reports as not found.
Anything else is a 404. Listens on 127.0.0.1 on a free port, writes http://127.0.0.1:PORT to URL_FILE, and serves
until killed.

usage: python3 tests/peers/fake_harbor_registry.py URL_FILE NAME@VERSION=TASK[,TASK...]...
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def datasets(args):
    found = {}
    for arg in args:
        dataset, tasks = arg.split("=", 1)
        name, version = dataset.split("@", 1)
        found[(name, version)] = {
            "name": name, "version": version, "description": "",
            "tasks": [{"name": t, "git_url": None, "git_commit_id": None, "path": t} for t in tasks.split(",")],
            "metrics": [],
        }
    return found


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path.split("?")[0] != "/rest/v1/rpc/get_dataset":
            return self.answer(404, {"message": f"no {self.path} here"})
        self.answer(200, self.server.datasets.get((body.get("p_name"), body.get("p_version"))))

    def do_GET(self):
        self.answer(404, {"message": f"no {self.path} here"})

    def answer(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split("\n\n")[-1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.datasets = datasets(argv[2:])
    url = Path(argv[1])
    url.with_name(url.name + ".tmp").write_text(f"http://127.0.0.1:{server.server_address[1]}")
    url.with_name(url.name + ".tmp").rename(url)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv)
