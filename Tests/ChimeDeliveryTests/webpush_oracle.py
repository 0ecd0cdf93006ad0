"""An independent check of Chime's Web Push messages: `http_ece` (PyPI, the Web Push libraries' own
implementation of RFC 8188/8291) decrypts each body with the subscription's private key and auth secret,
and PyJWT checks each VAPID token (RFC 8292) against the key the header names.

    webpush_oracle.py subscriptions N   prints JSON: N subscriptions made here (private key, p256dh, auth)
    webpush_oracle.py check FILE        FILE: JSON list of {"private", "auth", "body", "authorization",
                                        "audience"}; prints one JSON line per case: the plaintext (base64url)
                                        or the error, and what the VAPID check found
"""
import base64
import json
import sys
import time

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def subscriptions(count):
    made = []
    for _ in range(count):
        key = ec.generate_private_key(ec.SECP256R1())
        point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        made.append({"private": b64(key.private_numbers().private_value.to_bytes(32, "big")), "p256dh": b64(point),
                     "auth": b64(__import__("os").urandom(16))})
    print(json.dumps(made))


def vapid(authorization, audience):
    """What is wrong with a `vapid t=…, k=…` header for `audience`, or "ok"."""
    if not authorization.startswith("vapid "):
        return "not the vapid scheme"
    fields = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
    point = unb64(fields["k"])
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    try:
        claims = jwt.decode(fields["t"], key, algorithms=["ES256"], audience=audience)
    except jwt.InvalidTokenError as error:
        return f"token: {error}"
    if not 0 < claims["exp"] - time.time() <= 24 * 3600:
        return "exp is not within 24 hours"
    if "sub" in claims and not claims["sub"].startswith(("mailto:", "https:")):
        return "sub is neither mailto: nor https:"
    return "ok"


def check(path):
    for case in json.load(open(path)):
        private = ec.derive_private_key(int.from_bytes(unb64(case["private"]), "big"), ec.SECP256R1())
        try:
            plaintext = http_ece.decrypt(unb64(case["body"]), private_key=private, auth_secret=unb64(case["auth"]), version="aes128gcm")
            result = {"plaintext": b64(plaintext)}
        except Exception as error:
            result = {"error": str(error) or type(error).__name__}
        result["vapid"] = vapid(case["authorization"], case["audience"]) if case.get("authorization") else None
        print(json.dumps(result))


if __name__ == "__main__":
    {"subscriptions": lambda: subscriptions(int(sys.argv[2])), "check": lambda: check(sys.argv[2])}[sys.argv[1]]()
