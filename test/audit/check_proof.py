"""Checks a session-ledger inclusion proof against a digest, without Node (Python 3, stdlib only).
Usage: python3 check_proof.py PROOF.json DIGEST.json
  PROOF.json from `session-ledger audit prove STREAM REVISION --size SIZE --json` (or --leaf INDEX),
  DIGEST.json from `session-ledger audit digest --json` (SIZE: its size). Exit 0: proven; 1: not."""
import hashlib
import json
import sys
import unicodedata


def shown(text):
    """Text to print: control, format (bidi), separator and unassigned characters as \\uXXXX."""
    return "".join("\\u%04x" % ord(c) if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") else c for c in text)


def leaf_hash(data):
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(index, size, leaf, path):
    """RFC 9162 section 2.1.3.2: the root the audit path leads to, or None."""
    if index >= size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return r if sn == 0 else None


def canonical_fields(text, leaf):
    """The fields of a leaf input, or None when it is not canonical or does not hash to the leaf hash."""
    fields = json.loads(text)
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return fields if canonical == text.encode() and leaf_hash(canonical) == leaf else None


def erased_problem(proof, digest):
    """An erased event's leaf no longer shows which event it held: the proof must name the recorded
    deletion that erased it, a deletion of its stream through its revision, committed after it."""
    erased = proof.get("erasedBy")
    if not isinstance(erased, dict):
        return "the event is erased and the proof names no deletion that erased it"
    deletion_leaf = leaf_hash(erased["leafInput"].encode())
    fields = canonical_fields(erased["leafInput"], deletion_leaf)
    if fields is None or "deletion" not in fields or fields.get("index") != str(erased["index"]):
        return "the deletion's leaf input is not canonical or not a deletion's"
    if fields["stream"] != proof["stream"] or not int(fields["from"]) <= proof["revision"] <= int(fields["head"]):
        return "the deletion named does not erase this event's stream and revision"
    if erased["index"] <= proof["index"]:
        return "the deletion named comes before the leaf"
    if erased["path"] is None and erased["index"] < proof["size"]:
        # In this tree, so provable here: without its path, any leaf could be called a deletion.
        return "the deletion's leaf is in this tree and the proof gives no audit path to it"
    if erased["path"] is not None:
        root = root_from_path(erased["index"], proof["size"], deletion_leaf, [bytes.fromhex(h) for h in erased["path"]])
        if root is None or root.hex() != digest["root"]:
            return "the deletion's audit path does not lead to the digest's root"
    return None


def problem(proof, digest):
    leaf = bytes.fromhex(proof["leafHash"])
    if proof["leafInput"] is None:
        why = erased_problem(proof, digest)
        if why:
            return why
    else:
        fields = json.loads(proof["leafInput"])
        head = "head" if "deletion" in fields else "revision"  # a deletion's leaf: revision is its head
        named = {"index": str(proof["index"]), "stream": proof["stream"], head: str(proof["revision"])}
        if "position" in fields:  # an event leaf written since schema version 7 commits to its position
            named["position"] = str(proof["position"])
        if any(fields.get(key) != value for key, value in named.items()):
            return "the leaf input names another event"
        if canonical_fields(proof["leafInput"], leaf) is None:
            return "the leaf input is not canonical or does not hash to the leaf hash"
    if proof["size"] != digest["size"]:
        return "the proof is for a tree of %d leaves, the digest of %d" % (proof["size"], digest["size"])
    root = root_from_path(proof["index"], proof["size"], leaf, [bytes.fromhex(h) for h in proof["path"]])
    if root is None or root.hex() != digest["root"]:
        return "the audit path does not lead to the digest's root"
    return None


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as file:
        proof = json.load(file)
    with open(sys.argv[2], encoding="utf-8") as file:
        digest = json.load(file)
    why = problem(proof, digest)
    if why:
        print("NOT PROVEN: " + why)
        sys.exit(1)
    if proof["leafInput"] is not None:
        print("ok: %s@%d is leaf %d of the log of %d leaves, root %s" % (shown(proof["stream"]), proof["revision"], proof["index"], digest["size"], digest["root"]))
    else:
        erased = proof["erasedBy"]
        where = "proven in this tree" if erased["path"] is not None else "prove it against a later digest: audit prove --leaf %d" % erased["index"]
        deletion = json.loads(erased["leafInput"])
        print("ok: leaf %d is in the log of %d leaves, root %s; its event is erased, by the %s deletion at leaf %d of %s revisions %s..%s (%s); which of them the leaf held is not provable once erased"
              % (proof["index"], digest["size"], digest["root"], deletion["deletion"], erased["index"], shown(deletion["stream"]), deletion["from"], deletion["head"], where))
