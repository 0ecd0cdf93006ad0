"""A webhook receiver for the tests: verifies every request with the Standard Webhooks package (PyPI) and
answers by its path. Prints "listening on PORT" on standard error, then one JSON line per request on
standard output: {"path", "verified", "id", "timestamp", "body", "contentType"}.

/accept → 204 when the signature verifies (else 401); /gone → 410; /busy → 503 with Retry-After: 7;
/busy-until → 503 with a Retry-After HTTP-date 30 s ahead;
/redirect → 302 to /accept; /slow → waits 5 s, then 204; /flaky/N → 500 for the first N requests to that
path, then as /accept; /hang-once → the first request waits 60 s (its sender dies meanwhile), later ones
as /accept. POST /_secret with a secret as the body makes it the one verified from then on
(not logged).
"""
import email.utils
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import standardwebhooks

SECRET = sys.argv[1] if len(sys.argv) > 1 else None
SEEN = {}
LOCK = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        global SECRET
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.path == "/_secret":
            SECRET = body.decode()
            self.answer(204)
            return
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            standardwebhooks.Webhook(SECRET).verify(body, headers, json_parse=False)
            verified = True
        except Exception:
            verified = False
        with LOCK:
            SEEN[self.path] = SEEN.get(self.path, 0) + 1
            seen = SEEN[self.path]
        line = json.dumps({"path": self.path, "verified": verified, "id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"),
                           "body": body.decode("utf-8", "replace"), "contentType": headers.get("content-type")})
        # One write per line, under a lock: print() from several threads can interleave two lines.
        with LOCK:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        if self.path.startswith("/flaky/"):
            failures = int(self.path.split("/")[2])
            self.answer(500 if seen <= failures else (204 if verified else 401))
        elif self.path == "/hang-once" and seen == 1:
            time.sleep(60)
            self.answer(204)
        elif self.path in ("/accept", "/hang-once"):
            self.answer(204 if verified else 401)
        elif self.path == "/gone":
            self.answer(410)
        elif self.path == "/busy":
            self.answer(503, [("Retry-After", "7")])
        elif self.path == "/busy-until":
            # Retry-After as an HTTP-date (RFC 9110), 30 s ahead, written by Python's own formatter.
            self.answer(503, [("Retry-After", email.utils.formatdate(time.time() + 30, usegmt=True))])
        elif self.path == "/redirect":
            self.answer(302, [("Location", "/accept")])
        elif self.path == "/slow":
            time.sleep(5)
            self.answer(204)
        else:
            self.answer(404)

    def answer(self, status, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(f"listening on {server.server_address[1]}", file=sys.stderr, flush=True)
server.serve_forever()
