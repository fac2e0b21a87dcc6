#!/usr/bin/env python3
"""Writes the seed corpus of the Jazzer fuzz tests (docs/testing.md#fuzzing).

Each fuzz test reads its seeds from src/test/resources/<package>/<Class>Inputs/<method>/ of
its module: `mvn test` runs every file there once (regression mode) and `scripts/fuzz.sh`
starts mutating from them. The seeds are valid inputs of each format, taken from the docs
(docs/ltl.md, docs/admin-commands.md) or built here field by field after the drawings in
FrameCodec and PgFrameDecoder. Files named seed-* are written by this script (run it from the
repository root; it overwrites them); files named crash-* are inputs the fuzzer found that
once broke a promise, kept as regression tests, and are never touched here.
"""
import base64
import hashlib
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inputs(module, package, cls, method):
    d = os.path.join(ROOT, module, "src/test/resources", package.replace(".", "/"),
                     cls + "Inputs", method)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith("seed-"):
            os.remove(os.path.join(d, f))
    return d


def write(d, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def code_blocks(doc, lang):
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    return re.findall(r"^```" + lang + r"[^\n]*\n(.*?)^```", text, re.S | re.M)


# ---------------------------------------------------------------- LTL text and packed

LTL_BLOCKS = code_blocks("docs/ltl.md", "ltl")
d = inputs("ltl", "io.openrs.ltl.text", "LtlParserFuzzTest",
           "textParsesToCommandsThatRoundTripOrIsRefusedWithAPosition")
for i, block in enumerate(LTL_BLOCKS):
    write(d, "ltl-md-%02d.ltl" % i, block)

d = inputs("ltl", "io.openrs.ltl.text", "LtlParserFuzzTest",
           "packedBytesDecodeToCommandsThatRoundTripOrAreRefusedWithAnOffset")
golden = open(os.path.join(ROOT, "ltl/src/test/resources/packed/v1-commands.hex")).read()
hexes = [l.strip() for l in golden.splitlines() if l.strip() and not l.startswith(("#", "//"))]
for i, h in enumerate(hexes):
    write(d, "v1-%02d.bin" % i, bytes.fromhex(h))
write(d, "v1-all.bin", b"".join(bytes.fromhex(h) for h in hexes))

# ---------------------------------------------------------------- LTL wire frames


def frame(type_, body):
    return struct.pack(">IB", len(body) + 1, type_) + body


def oqid(b):
    return struct.pack(">I", len(b)) + b


CONNECT = ("connect source pg1.sales versions 1-3 user 'ra_sales' password 's3cret'"
           " agent 'repagent-pg1'").encode()
OQID = bytes.fromhex("00000000016b3a400000002a")
BATCH = "\n".join(LTL_BLOCKS[0].splitlines()[:3]).encode() + b"\n"
BLOB = b'{"lsn":"0/16B3A40"}'
FRAMES = {
    "hello": frame(0x01, CONNECT),
    "welcome-v1": frame(0x02, struct.pack(">I", 1) + oqid(OQID) + struct.pack(">I", len(BLOB)) + BLOB),
    "welcome-v3": frame(0x02, struct.pack(">I", 3) + oqid(b"") + struct.pack(">I", 0)
                        + struct.pack(">II", 10000, 30000)),
    "batch": frame(0x03, struct.pack(">Q", 1) + BATCH),
    "batch-accepted": frame(0x04, struct.pack(">QI", 1, 3)),
    "batch-rejected": frame(0x05, struct.pack(">QIII", 8, 2, 3, 38) + oqid(OQID[:5])
                            + "expected 'oqid', found 'oqdi' ✓".encode()),
    "get-truncation": frame(0x06, struct.pack(">Q", 7)),
    "truncation": frame(0x07, struct.pack(">Q", 7) + oqid(OQID)),
    "store-resume": frame(0x08, oqid(OQID) + struct.pack(">I", len(BLOB)) + BLOB),
    "error": frame(0x09, struct.pack(">I", 1) + b"pg1.sales is held by agent repagent-pg2"),
    "heartbeat": frame(0x0A, b""),
    "length-over-limit": struct.pack(">IB", 1025, 0x03) + b"\0" * 16,
}
d = inputs("wire", "io.openrs.wire", "FrameDecoderFuzzTest",
           "framesDecodeCanonicallyOrAreRefusedWithWireProtocolException")
# The last byte is the chunk size (1..64) the fuzz test feeds the Netty decoder with.
for name, f in FRAMES.items():
    write(d, name + ".bin", f + bytes([7]))
write(d, "session.bin", FRAMES["hello"] + FRAMES["batch"] + FRAMES["get-truncation"]
      + FRAMES["store-resume"] + FRAMES["heartbeat"] + bytes([13]))

# ---------------------------------------------------------------- admin port (PostgreSQL protocol 3)


def startup(params):
    body = b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in params) + b"\0"
    return struct.pack(">ii", 8 + len(body), 3 << 16) + body


def msg(t, body):
    return t.encode() + struct.pack(">i", len(body) + 4) + body


def cstr(s):
    return s.encode() + b"\0"


STARTUP = startup([("user", "sa"), ("database", "rssd"), ("application_name", "psql"),
                   ("client_encoding", "UTF8")])
SASL_INITIAL = msg("p", cstr("SCRAM-SHA-256") + struct.pack(">i", 32) + b"n,,n=,r=rOprNGfwEbeRWgbNEkqO")
PARSE = msg("P", cstr("s1") + cstr("select $1::int, 'x'") + struct.pack(">h", 1) + struct.pack(">i", 23))
BIND = msg("B", cstr("p1") + cstr("s1") + struct.pack(">h", 1) + struct.pack(">h", 0)
           + struct.pack(">h", 2) + struct.pack(">i", 2) + b"42" + struct.pack(">i", -1)
           + struct.pack(">h", 0))
EXTENDED = (PARSE + BIND + msg("D", b"P" + cstr("p1")) + msg("E", cstr("p1") + struct.pack(">i", 0))
            + msg("C", b"S" + cstr("s1")) + msg("S", b""))
d = inputs("pgwire", "io.openrs.pgwire", "PgProtocolFuzzTest",
           "frameDecoderEmitsMessagesOrOneViolationAndNeverThrows")
SEEDS = {
    "ssl-request": struct.pack(">ii", 8, 80877103),
    "gssenc-request": struct.pack(">ii", 8, 80877104),
    "cancel": struct.pack(">iiii", 16, 80877102, 4711, 123456789),
    "startup-query": STARTUP + msg("Q", cstr("admin who; select 1")) + msg("X", b""),
    "startup-sasl": STARTUP + SASL_INITIAL + msg("p", b"c=biws,r=rOprNGfwEbeRWgbNEkqO,p=AAAA"),
    "startup-extended": STARTUP + EXTENDED,
    "startup-copy-function": STARTUP + msg("d", b"x" * 8) + msg("c", b"") + msg("f", cstr("no"))
                             + msg("F", b"\0" * 6) + msg("H", b""),
    "query-over-statement-limit": STARTUP + msg("Q", b"a" * 1100 + b"\0"),
    "protocol-2": struct.pack(">ii", 8, 2 << 16),
}
for name, data in SEEDS.items():
    write(d, name + ".bin", data + bytes([11]))

d = inputs("pgwire", "io.openrs.pgwire", "PgProtocolFuzzTest",
           "lexerSplitsIntoFaithfulSpansOrRefusesWithAPosition")
for i, sql in enumerate([
        "admin who; select 1",
        "select 'it''s', E'a\\n\\x41\\u00e9\\'', $$dollar$$, $tag$x$y$tag$, \"Quoted\"\"Id\" from t",
        "/* outer /* nested */ still */ select 1.5e-3, .5, 42 -- trailing\n; ;",
        "select $1::int4, $2 where a <> b and c >= 'x'",
        "set search_path to 'public'; show all; begin; commit",
        "select 'unterminated",
        "/* unterminated comment"]):
    write(d, "sql-%02d.sql" % i, sql)

d = inputs("pgwire", "io.openrs.pgwire", "PgProtocolFuzzTest",
           "scramRefusesMalformedAndForgedMessagesAndNeverLogsInWithoutThePassword")
NONCE = "rOprNGfwEbeRWgbNEkqO"
SERVER_NONCE = "3rfcNHYJY1ZVvWVs7j"
FINAL = "c=biws,r=" + NONCE + SERVER_NONCE + ",p=" + "A" * 43 + "="
write(d, "plain.txt", "n,,n=,r=" + NONCE + "\0" + FINAL)
PLUS_BINDING = base64.b64encode(b"p=tls-server-end-point,," + bytes(32)).decode()
write(d, "plus.txt", "+p=tls-server-end-point,,n=,r=" + NONCE + "\0c=" + PLUS_BINDING + ",r=" + NONCE
      + SERVER_NONCE + ",p=" + "A" * 43 + "=")
write(d, "first-only.txt", "y,,n=sa,r=" + NONCE)

# ---------------------------------------------------------------- RCL


def rcl_commands():
    commands = []
    for block in code_blocks("docs/admin-commands.md", "sql"):
        for line in block.splitlines():
            if not line.strip():
                continue
            if line[0].isspace() and commands:
                commands[-1] += "\n" + line
            else:
                commands.append(line)
    return commands


d = inputs("repserver", "io.openrs.repserver.admin.rcl", "RclParserFuzzTest",
           "commandsParseToCanonicalTextOrAreRefusedWithAPosition")
seen = set()
for c in rcl_commands():
    key = c.split()[0] + "-" + hashlib.sha1(c.encode()).hexdigest()[:8]
    if c not in seen:
        seen.add(c)
        write(d, key + ".rcl", c)

d = inputs("repserver", "io.openrs.repserver.dist", "WhereClauseFuzzTest",
           "clausesParseOrAreRefusedWithAPosition")
for i, clause in enumerate([
        "region = 'EU' and amount >= 10",
        "Region = 'EU' and (amount >= 100.5 or vip = true) and not id in (3, 4)",
        "\"Odd Name\" <> 'it''s' or x between -1.5e3 and +2 or y not between 1 and 2",
        "d is not null and t is null or u not in ('a', 'b') and n != .5",
        "not not (a < 1 or b > 2) and c <= 3"]):
    write(d, "where-%02d.txt" % i, clause)
