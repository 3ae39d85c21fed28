"""
An ML-DSA-44 witness written for the tests from c2sp.org/tlog-witness and tlog-cosignature
alone, with the ML-DSA of OpenSSL (through Python's `cryptography`), an implementation
independent of the one the service and the verifier use. POST /add-checkpoint checks the
log's Ed25519 signature, the old size and the RFC 9162 consistency proof, keeps the latest
cosigned checkpoint in memory, and answers a `subtree/v1` cosignature line (type 0x06).
WITNESS_MODE=corrupt answers a cosignature whose signature has one bit flipped.
Env: WITNESS_NAME, WITNESS_SEED (32 bytes hex, the FIPS 204 key generation seed), LOG_VKEY,
WITNESS_MODE, WITNESS_PORT.
"""
import base64
import hashlib
import os
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from cryptography.hazmat.primitives.asymmetric import ed25519, mldsa

NAME = os.environ.get("WITNESS_NAME", "witness.test/pq")
MODE = os.environ.get("WITNESS_MODE", "normal")
KEY = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes.fromhex(os.environ.get("WITNESS_SEED", "33" * 32)))
PUBLIC = KEY.public_key().public_bytes_raw()
KEY_ID = hashlib.sha256(NAME.encode() + b"\n" + b"\x06" + PUBLIC).digest()[:4]

VKEY = os.environ["LOG_VKEY"]
LOG_NAME, LOG_ID_HEX, LOG_KEY_B64 = VKEY.split("+", 2)
LOG_KEY_RAW = base64.b64decode(LOG_KEY_B64)[1:]
LOG_KEY = ed25519.Ed25519PublicKey.from_public_bytes(LOG_KEY_RAW)
LOG_ID = hashlib.sha256(LOG_NAME.encode() + b"\n" + b"\x01" + LOG_KEY_RAW).digest()[:4]

EMPTY = hashlib.sha256(b"").digest()
state = {"size": 0, "root": EMPTY}


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def consistent(first, second, proof, first_hash, second_hash):
    """RFC 9162 section 2.1.4.2."""
    if first == second:
        return not proof and first_hash == second_hash
    if first == 0 or first > second or not proof:
        return False
    path = [first_hash] + proof if first & (first - 1) == 0 else proof
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == first_hash and sr == second_hash


def vector(data):
    return bytes([len(data)]) + data


def cosign(origin, size, root):
    timestamp = int(time.time())
    message = (
        b"subtree/v1\n\x00"
        + vector(NAME.encode())
        + struct.pack(">Q", timestamp)
        + vector(origin.encode())
        + struct.pack(">QQ", 0, size)
        + root
    )
    signature = bytearray(KEY.sign(message))
    if MODE == "corrupt":
        signature[100] ^= 0x01
    blob = KEY_ID + struct.pack(">Q", timestamp) + bytes(signature)
    return f"\u2014 {NAME} {base64.b64encode(blob).decode()}\n"


def add_checkpoint(body):
    head, _, note = body.partition("\n\n")
    lines = head.split("\n")
    if not lines[0].startswith("old "):
        return 400, "bad old line\n"
    old = int(lines[0][4:])
    proof = [base64.b64decode(line) for line in lines[1:]]
    split = note.rindex("\n\n")
    text = note[: split + 1]
    origin, size_text, root_b64 = text.split("\n")[:3]
    if origin != LOG_NAME:
        return 404, "unknown log\n"
    signed = False
    for line in note[split + 2 :].split("\n"):
        parts = line.split(" ")
        if len(parts) == 3 and parts[1] == LOG_NAME:
            blob = base64.b64decode(parts[2])
            if blob[:4] == LOG_ID:
                try:
                    LOG_KEY.verify(blob[4:], text.encode())
                    signed = True
                except Exception:
                    return 403, "a signature by the log does not verify\n"
    if not signed:
        return 403, "no signature by the log\n"
    size, root = int(size_text), base64.b64decode(root_b64)
    if old > size:
        return 400, "old size beyond the checkpoint\n"
    if old != state["size"]:
        return 409, f"{state['size']}\n"
    if old == 0 and proof:
        return 422, "proof from size 0\n"
    if old > 0 and not consistent(old, size, proof, state["root"], root):
        return 422, "not consistent with what I cosigned\n"
    state.update(size=size, root=root)
    return 200, cosign(origin, size, root)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode()
        status, answer = (404, "not found\n") if self.path != "/add-checkpoint" else add_checkpoint(body)
        data = answer.encode()
        self.send_response(status)
        self.send_header("content-type", "text/x.tlog.size" if status == 409 else "text/plain; charset=utf-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", int(os.environ.get("WITNESS_PORT", "0"))), Handler)
public = base64.urlsafe_b64encode(PUBLIC).decode().rstrip("=")
sys.stdout.write(f"listening {server.server_address[1]} {public}\n")
sys.stdout.flush()
server.serve_forever()
