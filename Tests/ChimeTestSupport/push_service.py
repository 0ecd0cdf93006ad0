"""A browser's push service on loopback, for the Web Push tests: HTTPS with a certificate of its own, checking
each message as RFC 8030 (TTL), RFC 8292 (the VAPID token and key) and RFC 8291 (it decrypts the body with the
subscription's private key, using `http_ece` from PyPI) say a push service and a browser do.

Prints "listening on PORT CERTIFICATE-PATH" on standard error, then one JSON line per message on standard
output: {"subscription", "status", "plaintext" (or "error"), "vapid", "ttl", "urgency", "topic",
"contentEncoding", "contentType"}.

POST /_subscribe {"applicationServerKey": …, "kind": …} makes a subscription as a browser's
pushManager.subscribe would, and answers with its PushSubscription JSON ({"endpoint", "keys"}). Its kind
scripts the answers: "ok" (201), "gone" (410), "missing" (404), "busy" (429 with Retry-After: 1 the first
time, then 201), "broken" (500), "hang" (the first message gets no answer for a minute, later ones 201). A message signed with another key than the subscription's is refused
with 403; a bad token with 401; one without TTL with 400; a body over 4096 bytes with 413.
"""
import base64
import itertools
import json
import os
import ssl
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apns_standin import make_certificate  # noqa: E402

SUBSCRIPTIONS = {}
SEEN = {}
LOCK = threading.Lock()
COUNTER = itertools.count(1)
ORIGIN = None


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(authorization, server_key):
    """(status, verdict): None when the token is good for this origin and the subscription's key."""
    if not authorization or not authorization.startswith("vapid "):
        return 401, "no vapid authorization"
    try:
        fields = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
        token, key = fields["t"], fields["k"]
    except (ValueError, KeyError):
        return 401, "malformed vapid authorization"
    if key != server_key:
        return 403, "signed with another key than the subscription's"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    try:
        claims = jwt.decode(token, public, algorithms=["ES256"], audience=ORIGIN)
    except jwt.InvalidTokenError as error:
        return 401, f"token: {error}"
    if not 0 < claims.get("exp", 0) - time.time() <= 24 * 3600:
        return 401, "exp is not within 24 hours"
    if "sub" in claims and not str(claims["sub"]).startswith(("mailto:", "https:")):
        return 401, "sub is neither mailto: nor https:"
    return None, "ok"


class PushService(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.path == "/_subscribe":
            request = json.loads(body)
            key = ec.generate_private_key(ec.SECP256R1())
            point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            identifier = f"{request.get('kind', 'ok')}-{next(COUNTER)}"
            auth = os.urandom(16)
            with LOCK:
                SUBSCRIPTIONS[identifier] = {"key": key, "auth": auth, "server_key": request["applicationServerKey"], "kind": request.get("kind", "ok")}
            self.answer(201, json.dumps({"endpoint": f"{ORIGIN}/push/{identifier}", "keys": {"p256dh": b64(point), "auth": b64(auth)}}).encode())
            return
        identifier = self.path.rsplit("/", 1)[-1]
        with LOCK:
            subscription = SUBSCRIPTIONS.get(identifier) if self.path.startswith("/push/") else None
            SEEN[identifier] = SEEN.get(identifier, 0) + 1
            seen = SEEN[identifier]
        entry = {"subscription": identifier, "ttl": self.headers.get("TTL"), "urgency": self.headers.get("Urgency"), "topic": self.headers.get("Topic"),
                 "contentEncoding": self.headers.get("Content-Encoding"), "contentType": self.headers.get("Content-Type"), "size": len(body)}
        status, headers = 201, [("Location", f"/message/{next(COUNTER)}")]
        if subscription is None:
            status = 404
        else:
            refusal, entry["vapid"] = check_vapid(self.headers.get("Authorization"), subscription["server_key"])
            try:
                plaintext = http_ece.decrypt(body, private_key=subscription["key"], auth_secret=subscription["auth"], version="aes128gcm")
                entry["plaintext"] = plaintext.decode("utf-8", "replace")
            except Exception as error:
                entry["error"] = str(error) or type(error).__name__
            kind = subscription["kind"]
            if refusal:
                status = refusal
            elif self.headers.get("TTL") is None or not self.headers["TTL"].isdigit():
                status = 400
            elif len(body) > 4096:
                status = 413
            elif self.headers.get("Content-Encoding") != "aes128gcm" or "error" in entry:
                status = 400
            elif kind == "gone":
                status = 410
            elif kind == "missing":
                status = 404
            elif kind == "busy" and seen == 1:
                status, headers = 429, [("Retry-After", "1")]
            elif kind == "broken":
                status = 500
            elif kind == "hang" and seen == 1:
                # The first message waits a minute for its answer: its sender is killed meanwhile.
                entry["status"] = "hanging"
                with LOCK:
                    sys.stdout.write(json.dumps(entry) + "\n")
                    sys.stdout.flush()
                time.sleep(60)
                return
        entry["status"] = status
        # One write per line, under the lock: print() from several threads can interleave two lines.
        with LOCK:
            sys.stdout.write(json.dumps(entry) + "\n")
            sys.stdout.flush()
        self.answer(status, b"", headers)

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    folder = tempfile.mkdtemp(prefix="chime-push-")
    cert, key = make_certificate(folder)
    server = ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    ORIGIN = f"https://127.0.0.1:{server.server_address[1]}"
    print(f"listening on {server.server_address[1]} {cert}", file=sys.stderr, flush=True)
    server.serve_forever()
