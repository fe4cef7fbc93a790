"""Writes an export of COUNT memories to FILE: realistic text (Zipf-distributed
words, 20 projects, every kind, 5% commitments), one create event each.
Usage: memgen.py COUNT FILE"""
import json, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(7)
syll = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ve", "dra", "qu", "zen", "bor", "fil", "gat"]
vocab = sorted({"".join(rnd.choice(syll) for _ in range(rnd.randint(2, 4))) for _ in range(9000)})[:6000]
weights = [1.0 / (i + 1) for i in range(len(vocab))]          # Zipf
kinds = ["decision"] * 20 + ["fact"] * 20 + ["note"] * 15 + ["finding"] * 10 + ["convention"] * 8 + \
        ["constraint"] * 6 + ["pattern"] * 6 + ["preference"] * 5 + ["commitment"] * 5 + ["blocker"] * 3 + ["stage"] * 2
def ts(ms):
    s, ms = divmod(ms, 1000); m, s = divmod(s, 60); h, m = divmod(m, 60); d, h = divmod(h, 24)
    return "2026-%02d-%02dT%02d:%02d:%02d.%03dZ" % (1 + d // 28, 1 + d % 28, h, m, s, ms)
with open(path, "w") as f:
    tail = []
    for i in range(n):
        kind = rnd.choice(kinds)
        words = rnd.choices(vocab, weights, k=rnd.randint(15, 70))
        t = ts(i * 1500)
        mid = "01900000-%04x-7%03x-8%03x-%012x" % (i >> 16, i & 0xfff, i % 4096, i)
        f.write(json.dumps({"type": "memory", "memory_id": mid, "kind": kind,
            "topic": " ".join(rnd.choices(vocab, weights, k=rnd.randint(2, 6))) + " %d" % i,
            "description": None, "content": " ".join(words) + ".", "project": "proj-%02d" % (i % 20),
            "scope": "project", "tags": sorted(set(rnd.choices(vocab[:200], k=rnd.randint(0, 3)))), "status": "active",
            "pinned": False, "redacted": False, "supersedes": None, "valid_from": t, "valid_to": None,
            "created_at": t, "updated_at": t}, sort_keys=True) + "\n")
        if kind == "commitment":
            tail.append(json.dumps({"type": "commitment", "memory_id": mid, "status": rnd.choice(["open", "open", "waiting", "resolved"]),
                "due_at": None, "owner": None, "resolved_at": None, "updated_at": t}, sort_keys=True))
        tail.append(json.dumps({"type": "event", "event_id": "01900000-%04x-7%03x-9%03x-%012x" % (i >> 16, i & 0xfff, i % 4096, i),
            "memory_id": mid, "kind": "create", "actor": "importer", "session_run_id": None, "reason": None, "created_at": t}, sort_keys=True))
    f.write("\n".join(tail) + "\n")
