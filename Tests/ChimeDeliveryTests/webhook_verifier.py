"""Verifies webhook signatures two independent ways: as the Standard Webhooks specification describes the
scheme (written here from its text), and with the `standardwebhooks` package from PyPI.

Reads a JSON array of cases from the file named as its argument: {"secret", "id", "timestamp",
"signature", "body" (base64)}; prints one line per case, "<spec> <package>", each "ok" or "bad".
"""
import base64
import hashlib
import hmac
import json
import sys
import time

import standardwebhooks

TOLERANCE = 5 * 60


def spec_verify(secret, msg_id, timestamp, signature_header, body):
    if not secret.startswith("whsec_"):
        return False
    key = base64.b64decode(secret[len("whsec_"):])
    if not (msg_id and timestamp and signature_header) or not timestamp.isdigit():
        return False
    if abs(time.time() - int(timestamp)) > TOLERANCE:
        return False
    expected = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    for entry in signature_header.split(" "):
        version, _, value = entry.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except ValueError:
            continue
        if hmac.compare_digest(given, expected):
            return True
    return False


def package_verify(secret, msg_id, timestamp, signature_header, body):
    headers = {"webhook-id": msg_id, "webhook-timestamp": timestamp, "webhook-signature": signature_header}
    try:
        standardwebhooks.Webhook(secret).verify(body, headers, json_parse=False)
        return True
    except Exception:
        return False


for case in json.load(open(sys.argv[1])):
    body = base64.b64decode(case["body"])
    arguments = (case["secret"], case["id"], case["timestamp"], case["signature"], body)
    print(" ".join("ok" if verify(*arguments) else "bad" for verify in (spec_verify, package_verify)))
