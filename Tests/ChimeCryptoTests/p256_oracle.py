"""An independent check of Chime's P-256 keys: Python's `cryptography` (OpenSSL through its own bindings,
written apart from Chime) and PyJWT, which verifies and signs ES256 tokens from RFC 7515/7518's rules.

    p256_oracle.py verify FILE   FILE: JSON list of {"public_pem", "token"}; prints "ok" or "bad" per token
    p256_oracle.py make N        prints JSON: N keys made here, each with a token it signed and an ECDH pair
"""
import base64
import json
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def verify(path):
    for case in json.load(open(path)):
        key = serialization.load_pem_public_key(case["public_pem"].encode())
        try:
            jwt.decode(case["token"], key, algorithms=["ES256"], options={"verify_exp": False, "verify_iat": False, "verify_aud": False})
            print("ok")
        except jwt.InvalidTokenError:
            print("bad")


def make(count):
    cases = []
    for index in range(count):
        key = ec.generate_private_key(ec.SECP256R1())
        peer = ec.generate_private_key(ec.SECP256R1())
        point = lambda k: k.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        # PKCS#8 for most keys, and SEC 1 ("EC PRIVATE KEY") for some: both forms are read.
        form = serialization.PrivateFormat.PKCS8 if index % 3 else serialization.PrivateFormat.TraditionalOpenSSL
        claims = {"iss": f"TEAM{index:06d}", "iat": 1_700_000_000 + index}
        cases.append({
            "private_pem": key.private_bytes(serialization.Encoding.PEM, form, serialization.NoEncryption()).decode(),
            "public_pem": key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
            "point": b64url(point(key)),
            "token": jwt.encode(claims, key, algorithm="ES256", headers={"kid": f"KEY{index}"}),
            "claims": claims,
            "peer_point": b64url(point(peer)),
            "shared_secret": b64url(key.exchange(ec.ECDH(), peer.public_key())),
        })
    print(json.dumps(cases))


if __name__ == "__main__":
    {"verify": lambda: verify(sys.argv[2]), "make": lambda: make(int(sys.argv[2]))}[sys.argv[1]]()
