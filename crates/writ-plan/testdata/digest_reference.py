#!/usr/bin/env python3
"""An independent implementation of the plan digest (encoding version 1), written from the
layout documented in crates/writ-plan/src/digest.rs, that fills in the digests of digests.json.

The Rust test (tests/digests.rs) checks writ's digest against the file; this script checks
that the documented layout is the whole story. Run: python3 digest_reference.py (in this folder).
"""
import base64, datetime, hashlib, json, struct

DEFAULT_BOUNDS = {"maxNodes": 256, "maxEdges": 512, "maxSteps": 4096,
                  "maxConcurrentFrames": 32, "maxEncodedBytes": 1048576}
BOUND_NAMES = ["maxNodes", "maxEdges", "maxSteps", "maxConcurrentFrames", "maxEncodedBytes"]
RAW_FIELDS = {"outputSchema", "predicate"}
HANDLES = {"always": 0, "match": 1, "no_match": 2, "default": 3, "error": 4}


def u64(n): return struct.pack(">Q", n)
def i64(n): return struct.pack(">q", n)
def s(text): b = text.encode("utf-8"); return u64(len(b)) + b
def opt(x): return b"\x00" if x is None else b"\x01" + x
def strs(items): return u64(len(items)) + b"".join(s(i) for i in items)


def number(n):
    n = float(n)
    return b"\x02" + struct.pack(">d", 0.0 if n == 0 else n)


def millis(text):
    when = datetime.datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    return (when - epoch) // datetime.timedelta(milliseconds=1)


def obj(fields, value):
    keys = sorted(fields, key=lambda k: k.encode("utf-8"))
    return b"\x05" + u64(len(keys)) + b"".join(s(k) + value(fields[k]) for k in keys)


def plain(v):
    if v is None: return b"\x00"
    if isinstance(v, bool): return b"\x01" + (b"\x01" if v else b"\x00")
    if isinstance(v, (int, float)): return number(v)
    if isinstance(v, str): return b"\x03" + s(v)
    if isinstance(v, list): return b"\x04" + u64(len(v)) + b"".join(plain(i) for i in v)
    return obj(v, plain)


def select(sel):
    if isinstance(sel, dict): return b"\x03" + u64(sel["index"])
    return {"first": b"\x00", "last": b"\x01", "all": b"\x02"}[sel]


def branch(b):
    out = u64(len(b["segments"]))
    for seg in b["segments"]:
        out += b"\x00" + s(seg["edge"]) if "edge" in seg else b"\x01" + s(seg["join"]) + strs(seg["of"])
    return out


def value(v):
    if isinstance(v, dict) and len(v) == 1:
        (tag, body), = v.items()
        if tag == "$ref":
            return (b"\x06" + s(body["node"]) + select(body["select"]) + opt(s(body["path"]) if "path" in body else None)
                    + opt(branch(body["branchId"]) if "branchId" in body else None))
        if tag == "$param": return b"\x07" + s(body["path"])
        if tag == "$date": return b"\x08" + i64(millis(body))
        if tag == "$regex": return b"\x09" + s(body["pattern"]) + s("".join(sorted(body.get("flags", ""))))
        if tag == "$map": return b"\x0a" + u64(len(body)) + b"".join(value(k) + value(x) for k, x in body)
        if tag == "$set": return b"\x0b" + u64(len(body)) + b"".join(value(m) for m in body)
        if tag == "$bigint": return b"\x0c" + s(body)
        if tag == "$bytes": data = base64.b64decode(body); return b"\x0d" + u64(len(data)) + data
        if tag == "$literal": return obj(body, value)
    if isinstance(v, list): return b"\x04" + u64(len(v)) + b"".join(value(i) for i in v)
    if isinstance(v, dict): return obj(v, value)
    return plain(v)


def handle(name):
    if name in HANDLES: return bytes([HANDLES[name]])
    if name.startswith("case_"): return b"\x05" + s(name[5:])
    return b"\x06" + s(name)


def encode(plan):
    out = b"writ.plan.v1" + s(plan["planId"]) + u64(len(plan["nodes"]))
    for node in plan["nodes"]:
        d = node.get("definition", {})
        out += s(node["id"]) + s(node["kind"]) + opt(s(node["phase"]) if node.get("phase") is not None else None)
        keys = sorted(d, key=lambda k: k.encode("utf-8"))
        out += u64(len(keys)) + b"".join(s(k) + (plain(d[k]) if k in RAW_FIELDS else value(d[k])) for k in keys)
    out += u64(len(plan["edges"]))
    for e in plan["edges"]:
        out += s(e["id"]) + s(e["from"]) + s(e["to"]) + handle(e["handle"])
    bounds = dict(DEFAULT_BOUNDS, **plan.get("bounds", {}))
    out += b"".join(u64(bounds[n]) for n in BOUND_NAMES)
    p = plan.get("provenance")
    out += b"\x00" if p is None else (b"\x01" + s(p["parent"]) + s(p["parentDigest"]) + u64(p["parentRevision"])
                                      + strs(p["completedAtClone"]))
    return out


vectors = json.load(open("digests.json"))
for vector in vectors:
    vector["digest"] = hashlib.sha256(encode(vector["plan"])).hexdigest()
with open("digests.json", "w") as f:
    json.dump(vectors, f, indent=1, ensure_ascii=False)
    f.write("\n")
