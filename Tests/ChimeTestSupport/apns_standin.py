"""A stand-in for APNs (api.push.apple.com) on loopback: HTTP/2 over TLS (ALPN h2), checking each request as
Apple's "Sending notification requests to APNs" and "Establishing a token-based connection to APNs" say
APNs does, and answering with APNs' own status codes and reasons.

    apns_standin.py --keys KEYS.json --log LOG.jsonl [--latency-ms N] [--quiet]

KEYS.json maps key identifiers to {"team": …, "public_pem": …}. The stand-in makes its own certificate, then
prints one line, "PORT CERTIFICATE-PATH", and serves until it is killed. Every request is a JSON line in LOG
(unless --quiet): its connection, stream, token, headers, payload and the answer given.

What a device token's first four hex digits script (the rest is free):
  0400  400 BadDeviceToken          0404  400 DeviceTokenNotForTopic
  0410  410 Unregistered, with the request's time as its timestamp (milliseconds)
  0429  429 TooManyRequests the first time this token is seen, then 200
  0500  500 InternalServerError, always
  0503  503 ServiceUnavailable the first time, then 200
  0403  403 ExpiredProviderToken for the first provider token this token is sent with, then as usual
  0999  the first request to this token is answered after 60 s (its sender dies meanwhile), later ones 200
anything else: 200.
"""
import argparse
import asyncio
import datetime
import json
import os
import re
import ssl
import sys
import tempfile
import time
import uuid

import h2.config
import h2.connection
import h2.events
import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
import ipaddress

PUSH_TYPES = {"alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets"}
UUID_FORM = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
TOKEN_PATH = re.compile(r"^/3/device/([0-9a-fA-F]{64,200})$")


def make_certificate(folder):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=2))
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    open(cert_path, "wb").write(certificate.public_bytes(serialization.Encoding.PEM))
    open(key_path, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


class Provider:
    """What APNs remembers of a key: its current token, when it changed, and whether it was rejected."""
    def __init__(self):
        self.token = None
        self.changed = 0.0
        self.rejected = False
        self.updates = 0


class State:
    def __init__(self, keys, log, latency):
        self.keys = {kid: (entry["team"], serialization.load_pem_public_key(entry["public_pem"].encode())) for kid, entry in keys.items()}
        self.log = log
        self.latency = latency
        self.providers = {}
        self.seen = {}
        self.connections = 0

    def record(self, entry):
        if self.log:
            self.log.write(json.dumps(entry) + "\n")
            self.log.flush()

    def authorize(self, authorization, device):
        """None when the provider token is good, else (status, reason)."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return 403, "MissingProviderToken"
        token = authorization[7:].strip()
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            return 403, "InvalidProviderToken"
        if header.get("alg") != "ES256" or header.get("kid") not in self.keys:
            return 403, "InvalidProviderToken"
        team, public_key = self.keys[header["kid"]]
        try:
            claims = jwt.decode(token, public_key, algorithms=["ES256"], options={"verify_exp": False, "verify_iat": False, "verify_aud": False})
        except jwt.InvalidTokenError:
            return 403, "InvalidProviderToken"
        if claims.get("iss") != team or not isinstance(claims.get("iat"), int) or set(claims) != {"iss", "iat"}:
            return 403, "InvalidProviderToken"
        now = time.time()
        if claims["iat"] > now + 60:
            return 403, "InvalidProviderToken"
        if now - claims["iat"] > 3600:
            return 403, "ExpiredProviderToken"
        provider = self.providers.setdefault(header["kid"], Provider())
        if token != provider.token:
            # A new token within 20 minutes of the last is refused, unless the last one was rejected.
            if provider.token is not None and now - provider.changed < 20 * 60 and not provider.rejected:
                return 429, "TooManyProviderTokenUpdates"
            provider.token, provider.changed, provider.rejected = token, now, False
            provider.updates += 1
        if device.startswith("0403") and self.seen.get(("0403", device)) is None:
            self.seen[("0403", device)] = True
            provider.rejected = True
            return 403, "ExpiredProviderToken"
        return None

    def answer(self, method, path, headers, payload):
        """(status, reason, extra body fields) for one request, checked as APNs checks it."""
        if method != "POST":
            return 405, "MethodNotAllowed", {}
        match = TOKEN_PATH.match(path)
        if not match:
            return 404, "BadPath", {}
        device = match.group(1).lower()
        refusal = self.authorize(headers.get("authorization"), device)
        if refusal:
            return refusal[0], refusal[1], {}
        if not headers.get("apns-topic"):
            return 400, "MissingTopic", {}
        push_type = headers.get("apns-push-type")
        if push_type not in PUSH_TYPES:
            return 400, "InvalidPushType", {}
        priority = headers.get("apns-priority", "10")
        if priority not in ("1", "5", "10") or (push_type == "background" and priority == "10"):
            return 400, "BadPriority", {}
        if "apns-expiration" in headers and not headers["apns-expiration"].isdigit():
            return 400, "BadExpirationDate", {}
        if len(headers.get("apns-collapse-id", "").encode()) > 64:
            return 400, "BadCollapseId", {}
        if "apns-id" in headers and not UUID_FORM.match(headers["apns-id"]):
            return 400, "BadMessageId", {}
        if not payload:
            return 400, "PayloadEmpty", {}
        if len(payload) > 4096:
            return 413, "PayloadTooLarge", {}
        try:
            body = json.loads(payload)
            if not isinstance(body, dict) or not isinstance(body.get("aps"), dict):
                raise ValueError
        except ValueError:
            return 400, "BadPayload", {}
        prefix = device[:4]
        first = (prefix, device) not in self.seen
        self.seen[(prefix, device)] = True
        if prefix == "0400":
            return 400, "BadDeviceToken", {}
        if prefix == "0404":
            return 400, "DeviceTokenNotForTopic", {}
        if prefix == "0410":
            return 410, "Unregistered", {"timestamp": int(time.time() * 1000)}
        if prefix == "0429" and first:
            return 429, "TooManyRequests", {}
        if prefix == "0500":
            return 500, "InternalServerError", {}
        if prefix == "0503" and first:
            return 503, "ServiceUnavailable", {}
        return 200, None, {}


class Connection(asyncio.Protocol):
    def __init__(self, state):
        self.state = state
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.streams = {}

    def connection_made(self, transport):
        self.transport = transport
        self.state.connections += 1
        self.number = self.state.connections
        if transport.get_extra_info("ssl_object").selected_alpn_protocol() != "h2":
            self.state.record({"violation": "the client did not negotiate h2 (ALPN)", "connection": self.number})
            transport.close()
            return
        self.h2.initiate_connection()
        self.transport.write(self.h2.data_to_send())

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except Exception as error:  # a protocol error: APNs would close the connection
            self.state.record({"violation": f"HTTP/2: {error}", "connection": self.number})
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = (dict(event.headers), bytearray())
            elif isinstance(event, h2.events.DataReceived):
                self.streams[event.stream_id][1].extend(event.data)
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                headers, payload = self.streams.pop(event.stream_id)
                asyncio.get_running_loop().create_task(self.respond(event.stream_id, headers, bytes(payload)))
        self.transport.write(self.h2.data_to_send())

    async def respond(self, stream, headers, payload):
        if self.state.latency:
            await asyncio.sleep(self.state.latency / 1000)
        token = headers.get(":path", "").rsplit("/", 1)[-1].lower()
        if token.startswith("0999") and ("0999", token) not in self.state.seen:
            self.state.seen[("0999", token)] = True
            self.state.record({"hanging": token, "apns_id": headers.get("apns-id"), "connection": self.number})
            await asyncio.sleep(60)
        method, path = headers.pop(":method", ""), headers.pop(":path", "")
        for pseudo in (":scheme", ":authority"):
            headers.pop(pseudo, None)
        status, reason, extra = self.state.answer(method, path, headers, payload)
        apns_id = headers.get("apns-id") if UUID_FORM.match(headers.get("apns-id", "")) else str(uuid.uuid4())
        body = json.dumps({"reason": reason, **extra}).encode() if reason else b""
        self.state.record({
            "connection": self.number, "stream": stream, "path": path,
            "token": path.rsplit("/", 1)[-1], "headers": {k: v for k, v in headers.items() if k != "authorization"},
            "authorization": headers.get("authorization", ""), "payload": payload.decode("utf-8", "replace"), "payload_size": len(payload),
            "status": status, "reason": reason, "apns_id": apns_id,
        })
        response = [(":status", str(status)), ("apns-id", apns_id)]
        if body:
            response += [("content-type", "application/json"), ("content-length", str(len(body)))]
        try:
            self.h2.send_headers(stream, response, end_stream=not body)
            if body:
                self.h2.send_data(stream, body, end_stream=True)
            self.transport.write(self.h2.data_to_send())
        except Exception:
            pass  # the client reset the stream or left


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", required=True)
    parser.add_argument("--log")
    parser.add_argument("--latency-ms", type=float, default=0)
    parser.add_argument("--quiet", action="store_true")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="chime-apns-")
    cert, key = make_certificate(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    log = None if arguments.quiet or not arguments.log else open(arguments.log, "a")
    state = State(json.load(open(arguments.keys)), log, arguments.latency_ms)
    server = await asyncio.get_running_loop().create_server(lambda: Connection(state), "127.0.0.1", 0, ssl=context)
    print(server.sockets[0].getsockname()[1], cert, flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
