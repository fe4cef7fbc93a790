#!/usr/bin/env python3
"""Synthetic sessions of every client sessionkit reads but Claude Code
(whose corpora come from gen_corpus.py): pi, Qwen Code, Copilot CLI,
OpenCode, Kilo, Kimi CLI, Factory Droid, Cline, Hermes Agent, OpenClaw,
Gemini CLI, Codex and Mistral Vibe, in each client's own shape (as their
real runs write it), with the traps each format sets for a counter, and
the exact totals a correct reader reports.

    tests/bench/agentgen.py FORMAT OUT --sessions N --responses R [--seed S] [--pad BYTES]

OUT receives the client's folder (pi: sessions/, qwen: projects/,
copilot: session-state/, opencode: opencode.db, kilo: kilo.db, kimi:
sessions/ and kimi.json, droid: sessions/, cline: sessions/, hermes:
state.db, openclaw: agents/, gemini: tmp/, codex: sessions/, vibe:
unified/) and expected_totals.json; the totals are printed too:
{"sessions", "messages", "input", "output", "cache_read", "cache_write"},
input without the cached part, output with reasoning ("messages" counts
the responses; a client that keeps running totals only is one message a
session or subagent).

Traps, per format:
- pi: an abandoned branch of the entry tree (its response was paid for);
  a `--continue` appended to the same file.
- qwen: every response's numbers again in a `ui_telemetry` line; a
  subagent's file with its sidecar (the model in the sidecar only).
- copilot: a response's usage record written twice (a resumed run's
  replay); `session.shutdown` snapshots, cumulative across runs; a
  subagent's records tagged with its `agentId`, their accounting naming
  the subagent's own session.
- opencode, kilo: each response's tokens again in its `step-finish` part
  and in `message.updated` events, and summed in the session row; output
  without reasoning (kept apart); a subagent session under its parent.
- kimi: every subagent response repeated in its parent's wire as a
  `SubagentEvent` (the subagent's own wire holds it too); `input_other`
  without the cached part.
- droid: no usage in the transcripts; each session's settings document
  holds its own running totals (`tokenUsage`, one figure), the parent's
  also `inclusiveTokenUsage` with its subagent's added, and a `.bak` of an
  older save beside each; a subagent is a pair of its own naming its
  caller. Each (sub)session's totals are one message.
- cline: whole documents; `inputTokens` with the cached part in it; the
  manifest's running totals beside them; a subagent's document.
- hermes: running totals per session row (one message each), repeated by
  model in `session_model_usage`; what was said in `messages` beside them;
  a subagent row under its parent.
- openclaw: pi's entries as rows of an agent's database; a subagent's
  window naming its parent's session key.
- gemini: each answer written twice (the second with its tool calls) and
  again inside `$set` lists; input with the cached part, output without
  the thoughts, tool-use prompt tokens apart; a subagent's chat.
- codex: each response's `token_usage_record`, its numbers again as
  running totals in `token_count`; input with the cached part; a
  subagent thread's own rollout.
- vibe: the older half of each session's journal deleted (its calls only
  in the snapshot's running totals); a child session.
`--pad` adds that many bytes of text to each response (the size knob).
"""
import argparse
import json
import os
import random
import sqlite3
import uuid


def uid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def ts(base_ms, i):
    s, ms = divmod(base_ms + i * 1000, 1000)
    import datetime
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{ms:03d}Z"


class Totals:
    def __init__(self):
        self.t = dict(sessions=0, messages=0, input=0, output=0, cache_read=0, cache_write=0)

    def add(self, input, output, cache_read, cache_write=0):
        self.t["messages"] += 1
        self.t["input"] += input
        self.t["output"] += output
        self.t["cache_read"] += cache_read
        self.t["cache_write"] += cache_write


def usage(rng):
    prompt = rng.randint(2000, 60000)
    cached = rng.randint(0, prompt // 2)
    out = rng.randint(10, 900)
    reasoning = rng.randint(0, out // 3)
    return prompt, cached, out, reasoning


def write_lines(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        for l in lines:
            f.write(json.dumps(l, separators=(",", ":")) + "\n")


BASE = 1_796_500_000_000


def gen_pi(out, a, rng, tot):
    for s in range(a.sessions):
        sid = uid(rng)
        cwd = f"/home/dev/p{s % 7}"
        path = os.path.join(out, "sessions", "--" + cwd[1:].replace("/", "-") + "--", f"2026-12-04T10-00-00-000Z_{sid}.jsonl")
        lines = [{"type": "session", "version": 3, "id": sid, "timestamp": ts(BASE, 0), "cwd": cwd}]
        parent, n = None, 0
        for r in range(a.responses):
            n += 1
            user = f"u{r:06d}"
            lines.append({"type": "message", "id": user, "parentId": parent, "timestamp": ts(BASE, n),
                          "message": {"role": "user", "content": [{"type": "text", "text": "go on"}], "timestamp": 0}})
            p, c, o, _ = usage(rng)
            w = rng.randint(0, 50)
            tot.add(p - c, o, c, w)
            reply = f"a{r:06d}"
            lines.append({"type": "message", "id": reply, "parentId": user, "timestamp": ts(BASE, n),
                          "message": {"role": "assistant", "content": [{"type": "text", "text": "x" * a.pad}],
                                      "api": "openai-completions", "provider": "p", "model": "gpt-5",
                                      "usage": {"input": p - c, "output": o, "cacheRead": c, "cacheWrite": w,
                                                "totalTokens": p + o + w, "cost": {"total": 0}},
                                      "stopReason": "stop", "timestamp": 0, "responseId": f"resp-{sid}-{r}"}})
            if r % 5 == 4:
                # A branch the user left: a second reply to the same prompt.
                p, c, o, _ = usage(rng)
                tot.add(p - c, o, c)
                lines.append({"type": "message", "id": f"b{r:06d}", "parentId": user, "timestamp": ts(BASE, n),
                              "message": {"role": "assistant", "content": [{"type": "text", "text": "y"}],
                                          "model": "gpt-5", "usage": {"input": p - c, "output": o, "cacheRead": c,
                                                                      "cacheWrite": 0, "totalTokens": p + o},
                                          "stopReason": "stop", "timestamp": 0, "responseId": f"branch-{sid}-{r}"}})
            parent = reply
        half = len(lines) // 2
        write_lines(path, lines[:half])
        # `--continue`: the rest appended to the same file.
        write_lines(path, lines[half:])
        tot.t["sessions"] += 1


def gen_qwen(out, a, rng, tot):
    for s in range(a.sessions):
        sid = uid(rng)
        cwd = f"/home/dev/q{s % 7}"
        proj = os.path.join(out, "projects", cwd.replace("/", "-"))
        lines = []
        head = {"sessionId": sid, "cwd": cwd, "version": "0.24.4", "parentUuid": None}
        for r in range(a.responses):
            p, c, o, th = usage(rng)
            tot.add(p - c, o, c)
            lines.append(dict(head, uuid=uid(rng), timestamp=ts(BASE, 2 * r), type="user",
                              message={"role": "user", "parts": [{"text": "next"}]}))
            lines.append(dict(head, uuid=uid(rng), timestamp=ts(BASE, 2 * r + 1), type="system",
                              subtype="ui_telemetry",
                              systemPayload={"uiEvent": {"event.name": "qwen-code.api_response",
                                                         "input_token_count": p, "output_token_count": o,
                                                         "cached_content_token_count": c}}))
            lines.append(dict(head, uuid=uid(rng), timestamp=ts(BASE, 2 * r + 1), type="assistant",
                              model="qwen3-coder-plus",
                              message={"role": "model", "parts": [{"text": "z" * a.pad}]},
                              usageMetadata={"promptTokenCount": p, "candidatesTokenCount": o,
                                             "thoughtsTokenCount": th, "totalTokenCount": p + o,
                                             "cachedContentTokenCount": c}))
        # A subagent, started by an `agent` call.
        call = f"call_{s:06d}"
        lines.append(dict(head, uuid=uid(rng), timestamp=ts(BASE, 9999), type="assistant", model="qwen3-coder-plus",
                          message={"role": "model", "parts": [{"functionCall": {"id": call, "name": "agent",
                                   "args": {"description": "probe", "prompt": "SUBTASK", "subagent_type": "general-purpose"}}}]}))
        write_lines(os.path.join(proj, "chats", f"{sid}.jsonl"), lines)
        agent = f"general-purpose-{call}"
        sub = os.path.join(proj, "subagents", sid)
        p, c, o, th = usage(rng)
        tot.add(p - c, o, c)
        write_lines(os.path.join(sub, f"agent-{agent}.jsonl"), [
            dict(head, uuid=uid(rng), timestamp=ts(BASE, 10000), type="user", agentId=agent, isSidechain=True,
                 message={"role": "user", "parts": [{"text": "SUBTASK"}]}),
            dict(head, uuid=uid(rng), timestamp=ts(BASE, 10001), type="assistant", agentId=agent, isSidechain=True,
                 message={"role": "model", "parts": [{"text": "sub done"}]},
                 usageMetadata={"promptTokenCount": p, "candidatesTokenCount": o, "thoughtsTokenCount": th,
                                "totalTokenCount": p + o, "cachedContentTokenCount": c}),
        ])
        with open(os.path.join(sub, f"agent-{agent}.meta.json"), "w") as f:
            json.dump({"agentId": agent, "agentType": "general-purpose", "description": "probe",
                       "parentSessionId": sid, "toolUseId": call, "model": "qwen3-coder-plus"}, f)
        tot.t["sessions"] += 1


def gen_copilot(out, a, rng, tot):
    for s in range(a.sessions):
        sid = uid(rng)
        lines = [{"type": "session.start", "id": uid(rng), "timestamp": ts(BASE, 0),
                  "data": {"sessionId": sid, "startTime": ts(BASE, 0), "context": {"cwd": f"/home/dev/c{s % 7}"}}}]
        cumulative = {"inputTokens": 0, "outputTokens": 0}

        def record(call, p, c, o, agent=None, source=sid):
            e = {"type": "session.usage_record", "id": uid(rng), "timestamp": ts(BASE, len(lines)),
                 "data": {"usage": {"model": "gpt-5", "inputTokens": p, "outputTokens": o, "cacheReadTokens": c,
                                    "cacheWriteTokens": 0, "apiCallId": call,
                                    "accounting": {"sourceSessionId": source, "usageId": call}}}}
            if agent:
                e["agentId"] = agent
            return e

        for r in range(a.responses):
            p, c, o, _ = usage(rng)
            tot.add(p - c, o, c)
            call = f"chatcmpl-{sid}-{r}"
            lines.append(record(call, p, c, o))
            lines.append({"type": "assistant.message", "id": uid(rng), "timestamp": ts(BASE, len(lines)),
                          "data": {"content": "w" * a.pad, "messageId": call}})
            cumulative["inputTokens"] += p
            cumulative["outputTokens"] += o
            if r == a.responses // 2:
                lines.append({"type": "session.shutdown", "id": uid(rng), "timestamp": ts(BASE, len(lines)),
                              "data": {"accountingSnapshot": {"modelMetrics": {"gpt-5": {"usage": dict(cumulative)}}}}})
                # A resumed run replays the last record.
                lines.append(dict(lines[-3], id=uid(rng)))
        agent = uid(rng)
        call = f"call-{s}"
        lines.append({"type": "subagent.started", "id": uid(rng), "agentId": agent, "timestamp": ts(BASE, len(lines)),
                      "data": {"toolCallId": call, "agentName": "explore", "agentDescription": "probe"}})
        p, c, o, _ = usage(rng)
        tot.add(p - c, o, c)
        lines.append(record(f"chatcmpl-sub-{sid}", p, c, o, agent=agent, source=uid(rng)))
        lines.append({"type": "subagent.completed", "id": uid(rng), "agentId": agent, "timestamp": ts(BASE, len(lines)),
                      "data": {"toolCallId": call}})
        lines.append({"type": "session.shutdown", "id": uid(rng), "timestamp": ts(BASE, len(lines)),
                      "data": {"accountingSnapshot": {"modelMetrics": {"gpt-5": {"usage": dict(cumulative)}}}}})
        write_lines(os.path.join(out, "session-state", sid, "events.jsonl"), lines)
        tot.t["sessions"] += 1


def gen_opencode(out, a, rng, tot, name="opencode.db"):
    os.makedirs(out, exist_ok=True)
    db = os.path.join(out, name)
    if os.path.exists(db):
        os.remove(db)
    here = os.path.dirname(os.path.abspath(__file__))
    schema = open(os.path.join(here, "..", "..", "fixtures", "opencode-1.18", "opencode.sql")).read()
    con = sqlite3.connect(db)
    ddl = "\n".join(l for l in schema.splitlines() if not l.startswith("INSERT"))
    con.executescript(ddl)
    con.execute("CREATE TABLE IF NOT EXISTS part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text)")
    con.execute("CREATE TABLE IF NOT EXISTS event (id text PRIMARY KEY, aggregate_id text, seq integer, type text, data text)")
    con.execute("INSERT INTO project VALUES('global','/',NULL,NULL,NULL,NULL,NULL,0,0,NULL,'[]',NULL)")
    seq = 0
    for s in range(a.sessions):
        parent = f"ses_{s:08d}parent{rng.getrandbits(32):08x}"
        child = f"ses_{s:08d}child0{rng.getrandbits(32):08x}"
        for sess, par, n in ((parent, None, a.responses), (child, parent, max(1, a.responses // 4))):
            sums = [0, 0, 0, 0]
            for r in range(n):
                p, c, o, th = usage(rng)
                tot.add(p - c, o, c)
                tokens = {"total": p + o, "input": p - c, "output": o - th, "reasoning": th,
                          "cache": {"write": 0, "read": c}}
                mid = f"msg_{sess}_{r:06d}"
                data = {"role": "assistant", "modelID": "gpt-5", "providerID": "openai", "tokens": tokens,
                        "time": {"created": BASE + r}, "finish": "stop", "text": "v" * a.pad}
                con.execute("INSERT INTO message VALUES(?,?,?,?,?)", (mid, sess, BASE + r * 10, BASE + r * 10 + 5, json.dumps(data)))
                con.execute("INSERT INTO part VALUES(?,?,?,?,?,?)", (f"prt_{mid}", mid, sess, BASE + r * 10, BASE + r * 10,
                            json.dumps({"type": "step-finish", "reason": "stop", "tokens": tokens})))
                for _ in range(2):
                    seq += 1
                    con.execute("INSERT INTO event VALUES(?,?,?,?,?)", (f"evt_{seq:010d}", sess, seq, "message.updated.1",
                                json.dumps({"info": data})))
                sums = [sums[0] + p - c, sums[1] + o - th, sums[2] + th, sums[3] + c]
            con.execute("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, agent, time_created, time_updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (sess, "global", par, "slug", f"/home/dev/o{s % 7}", "t", "1.18.33", *sums, "build" if par is None else "general", BASE, BASE + 99999))
        tot.t["sessions"] += 1
    con.commit()
    con.close()


def gen_kimi(out, a, rng, tot):
    import hashlib
    work_dirs = []
    for s in range(a.sessions):
        sid = uid(rng)
        cwd = f"/home/dev/k{s}"
        work = os.path.join(out, "sessions", hashlib.md5(cwd.encode()).hexdigest(), sid)
        work_dirs.append({"path": cwd, "kaos": "local", "last_session_id": sid})
        t = BASE / 1000

        def status(msg_id, p, c, o, w):
            return {"type": "StatusUpdate", "payload": {"context_tokens": p, "max_context_tokens": 128000,
                    "token_usage": {"input_other": p - c, "output": o, "input_cache_read": c, "input_cache_creation": w},
                    "message_id": msg_id, "plan_mode": False, "mcp_status": None}}

        lines = [{"type": "metadata", "protocol_version": "1.10"}]
        sub = []
        agent = f"a{s:05x}"
        for r in range(a.responses):
            t += 1
            lines.append({"timestamp": t, "message": {"type": "TurnBegin", "payload": {"user_input": "go on " + "x" * a.pad}}})
            p, c, o, _ = usage(rng)
            w = rng.randint(0, 30)
            tot.add(p - c, o, c, w)
            lines.append({"timestamp": t, "message": status(f"chatcmpl-{sid}-{r}", p, c, o, w)})
            if r == 1:
                # A subagent: its responses in its own wire, and again in
                # the parent's as SubagentEvents.
                call = f"call_{sid[:8]}"
                lines.append({"timestamp": t, "message": {"type": "ToolCall", "payload": {"type": "function", "id": call,
                              "function": {"name": "Agent", "arguments": "{}"}}}})
                for k in range(max(1, a.responses // 3)):
                    p, c, o, _ = usage(rng)
                    tot.add(p - c, o, c)
                    st = status(f"chatcmpl-sub-{sid}-{k}", p, c, o, 0)
                    sub.append({"timestamp": t, "message": st})
                    lines.append({"timestamp": t, "message": {"type": "SubagentEvent", "payload": {
                        "parent_tool_call_id": call, "agent_id": agent, "subagent_type": "coder", "event": st}}})
                lines.append({"timestamp": t, "message": {"type": "ToolResult", "payload": {"tool_call_id": call,
                              "return_value": {"is_error": False, "output": "done"}}}})
            lines.append({"timestamp": t, "message": {"type": "TurnEnd", "payload": {}}})
        write_lines(os.path.join(work, "wire.jsonl"), lines)
        subdir = os.path.join(work, "subagents", agent)
        write_lines(os.path.join(subdir, "wire.jsonl"), [{"type": "metadata", "protocol_version": "1.10"}] + sub)
        with open(os.path.join(subdir, "meta.json"), "w") as f:
            json.dump({"agent_id": agent, "subagent_type": "coder", "status": "completed", "description": "sub"}, f)
        tot.t["sessions"] += 1
    with open(os.path.join(out, "kimi.json"), "w") as f:
        json.dump({"work_dirs": work_dirs}, f)


def gen_droid(out, a, rng, tot):
    def totals(n, pad_to=None):
        t = {"inputTokens": 0, "outputTokens": 0, "cacheCreationTokens": 0, "cacheReadTokens": 0,
             "thinkingTokens": 0, "factoryCredits": 0}
        for _ in range(n):
            p, c, o, _ = usage(rng)
            t["inputTokens"] += p - c
            t["outputTokens"] += o
            t["cacheReadTokens"] += c
        return t

    for s in range(a.sessions):
        slug = f"-home-dev-d{s % 5}"
        folder = os.path.join(out, "sessions", slug)
        parent, child = uid(rng), uid(rng)
        for sid, calling, n in ((parent, None, a.responses), (child, parent, max(1, a.responses // 3))):
            start = {"type": "session_start", "id": sid, "title": "go", "owner": "unknown", "version": 2,
                     "cwd": "/home/dev/d", "isSessionTitleManuallySet": False}
            if calling:
                start.update({"callingSessionId": calling, "callingToolUseId": f"call_{sid[:8]}"})
            lines = [start]
            for r in range(n):
                lines.append({"type": "message", "id": f"u{r}", "timestamp": ts(BASE, r),
                              "message": {"role": "user", "content": [{"type": "text", "text": "go " + "x" * a.pad}]}})
                lines.append({"type": "message", "id": f"m{r}", "timestamp": ts(BASE, r),
                              "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
                              "modelId": "custom:gpt-5-0"})
            lines.append({"type": "agent_turn_outcome", "turnId": "u0", "reason": "completed"})
            write_lines(os.path.join(folder, f"{sid}.jsonl"), lines)
            own = totals(n)
            tot.add(own["inputTokens"], own["outputTokens"], own["cacheReadTokens"])
            older = {k: v // 2 for k, v in own.items()}
            doc = {"model": "custom:gpt-5-0", "tokenUsage": own,
                   # The subagent's figures again (never read).
                   "inclusiveTokenUsage": {k: v * 3 for k, v in own.items()},
                   "lastCallTokenUsage": {"inputTokens": 1, "outputTokens": 1, "cacheReadTokens": 1}}
            with open(os.path.join(folder, f"{sid}.settings.json"), "w") as f:
                json.dump(doc, f, indent=2)
            with open(os.path.join(folder, f"{sid}.settings.json.bak"), "w") as f:
                json.dump(dict(doc, tokenUsage=older), f, indent=2)
        tot.t["sessions"] += 1


def gen_kilo(out, a, rng, tot):
    # OpenCode's tables in Kilo's own database.
    gen_opencode(out, a, rng, tot, name="kilo.db")


def gen_cline(out, a, rng, tot):
    for s in range(a.sessions):
        sid = f"{BASE + s * 1000}_" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(5))
        folder = os.path.join(out, "sessions", sid)
        os.makedirs(folder, exist_ok=True)
        running = {"inputTokens": 0, "outputTokens": 0, "cacheReadTokens": 0, "cacheWriteTokens": 0}

        def document(agent, n, t0):
            msgs = []
            for r in range(n):
                t = t0 + r * 10
                msgs.append({"id": f"u{r}", "role": "user", "ts": t,
                             "content": [{"type": "text", "text": "<user_input mode=\"act\">go on " + "x" * a.pad + "</user_input>"}]})
                p, c, o, _ = usage(rng)
                # Reasoning is not recorded; input counts the cached part.
                tot.add(p - c, o, c)
                for k, v in (("inputTokens", p), ("outputTokens", o), ("cacheReadTokens", c)):
                    running[k] += v
                calls = r < n - 1
                content = [{"type": "tool_use", "id": f"t{r}", "name": "run_commands", "input": {"commands": ["ls"]}}] if calls \
                    else [{"type": "text", "text": "done"}]
                msgs.append({"id": f"{sid}-{agent}-a{r}", "role": "assistant", "ts": t + 5, "content": content,
                             "metrics": {"inputTokens": p, "outputTokens": o, "cacheReadTokens": c, "cacheWriteTokens": 0},
                             "modelInfo": {"id": "fake-model", "provider": "openai-compatible"}})
                if calls:
                    msgs.append({"id": f"r{r}", "role": "user", "ts": t + 6,
                                 "content": [{"type": "tool_result", "tool_use_id": f"t{r}", "name": "run_commands", "content": "ok"}]})
            return {"version": 1, "updated_at": t0, "agent": agent, "sessionId": sid, "messages": msgs}

        lead = document("lead", a.responses, BASE)
        with open(os.path.join(folder, f"{sid}.messages.json"), "w") as f:
            json.dump(lead, f)
        sub = document("subagent", max(1, a.responses // 4), BASE + 500)
        with open(os.path.join(folder, f"agent_a{s:04d}.messages.json"), "w") as f:
            json.dump(sub, f)
        # The manifest's totals: running, never added to the messages'.
        manifest = {"version": 1, "session_id": sid, "status": "completed", "cwd": f"/home/dev/c{s % 5}",
                    "metadata": {"usage": running, "aggregateUsage": running}}
        with open(os.path.join(folder, f"{sid}.json"), "w") as f:
            json.dump(manifest, f)
        tot.t["sessions"] += 1


def schema_of(fixture):
    """The CREATE statements of a fixture database (its tables, not its rows)."""
    here = os.path.dirname(os.path.abspath(__file__))
    con = sqlite3.connect(os.path.join(here, "..", "..", fixture))
    sql = [r[0] for r in con.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'")]
    con.close()
    return ";\n".join(sql) + ";"


def fresh_db(path, fixture):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(schema_of(fixture))
    return con


def gen_hermes(out, a, rng, tot):
    con = fresh_db(os.path.join(out, "state.db"), "fixtures/golden/hermes/corpus/.hermes/state.db")
    cols = [r[1] for r in con.execute("PRAGMA table_info(sessions)")]
    for s in range(a.sessions):
        parent = f"20261206_{s:06d}_{rng.getrandbits(24):06x}"
        child = f"20261206_{s:06d}_{rng.getrandbits(24):06x}c"
        for sid, par, n in ((parent, None, a.responses), (child, parent, max(1, a.responses // 4))):
            t = dict(input=0, output=0, cache_read=0, reasoning=0)
            for r in range(n):
                # What was said is kept beside the totals (never read).
                for role, text in (("user", "go on " + "x" * a.pad), ("assistant", "ok")):
                    con.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?,?,?,?)",
                                (sid, role, text, BASE / 1000 + r))
                p, c, o, th = usage(rng)
                t["input"] += p - c
                t["output"] += o
                t["cache_read"] += c
                t["reasoning"] += th
            # One running total per session: one message.
            tot.add(t["input"], t["output"], t["cache_read"])
            row = {"id": sid, "source": "cli", "model": "fake-model", "parent_session_id": par,
                   "started_at": BASE / 1000 + s, "ended_at": BASE / 1000 + s + 60, "end_reason": "completed",
                   "message_count": 2 * n, "input_tokens": t["input"], "output_tokens": t["output"],
                   "cache_read_tokens": t["cache_read"], "cache_write_tokens": 0,
                   "reasoning_tokens": t["reasoning"], "api_call_count": n, "cwd": f"/home/dev/h{s % 5}",
                   "title": f"{sid} " + "x" * min(a.pad, 200)}
            row = {k: v for k, v in row.items() if k in cols}
            con.execute(f"INSERT INTO sessions ({','.join(row)}) VALUES ({','.join('?' * len(row))})", list(row.values()))
            # The same sums again by model (never read).
            if "session_model_usage" in [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]:
                mcols = [r[1] for r in con.execute("PRAGMA table_info(session_model_usage)")]
                m = {"session_id": sid, "model": "fake-model", "input_tokens": t["input"], "output_tokens": t["output"],
                     "cache_read_tokens": t["cache_read"], "reasoning_tokens": t["reasoning"]}
                m = {k: v for k, v in m.items() if k in mcols}
                con.execute(f"INSERT INTO session_model_usage ({','.join(m)}) VALUES ({','.join('?' * len(m))})", list(m.values()))
        tot.t["sessions"] += 1
    con.commit()
    con.close()


def gen_openclaw(out, a, rng, tot):
    db = os.path.join(out, "agents", "main", "agent", "openclaw-agent.sqlite")
    con = fresh_db(db, "fixtures/golden/openclaw/corpus/.openclaw/agents/main/agent/openclaw-agent.sqlite")
    for s in range(a.sessions):
        parent, child = uid(rng), uid(rng)
        pkey, ckey = f"agent:main:s{s}", f"agent:main:subagent:s{s}"
        for sid, key, par, n in ((parent, pkey, None, a.responses), (child, ckey, pkey, max(1, a.responses // 4))):
            con.execute("INSERT INTO session_nodes (session_key, current_session_id, entry_json, entry_valid, updated_at, created_at, parent_session_key) VALUES (?,?,?,?,?,?,?)",
                        (key, sid, "{}", 1, BASE + 9999, BASE, par))
            con.execute("INSERT INTO session_windows (session_id, session_key, session_scope, created_at, updated_at, status, model_provider, model, parent_session_key, spawned_by, display_name) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (sid, key, "conversation", BASE + s, BASE + s + 9999, "done" if par else None, "fake", "fake-model", par, par, "helper" if par else None))
            seq = 0
            def event(e):
                nonlocal seq
                text = json.dumps(e, separators=(",", ":"))
                con.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?,?,?,?,?)",
                            (sid, seq, text, BASE + seq, len(text)))
                seq += 1
            event({"type": "session", "version": 4, "id": sid, "timestamp": ts(BASE, 0), "cwd": f"/home/dev/o{s % 5}"})
            prev = None
            for r in range(n):
                user = f"u{r:06d}"
                event({"type": "message", "id": user, "parentId": prev, "timestamp": ts(BASE, r),
                       "message": {"role": "user", "content": [{"type": "text", "text": "go " + "x" * a.pad}], "timestamp": 0}})
                p, c, o, th = usage(rng)
                tot.add(p - c, o, c)
                reply = f"a{r:06d}"
                event({"type": "message", "id": reply, "parentId": user, "timestamp": ts(BASE, r),
                       "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}],
                                   "api": "openai-completions", "provider": "fake", "model": "fake-model",
                                   "usage": {"input": p - c, "output": o, "cacheRead": c, "cacheWrite": 0,
                                             "reasoningTokens": th, "totalTokens": p + o, "cost": {"total": 0}},
                                   "stopReason": "stop", "timestamp": 0, "responseId": f"resp-{sid}-{r}"}})
                prev = reply
        tot.t["sessions"] += 1
    con.commit()
    con.close()


def gen_gemini(out, a, rng, tot):
    for s in range(a.sessions):
        sid = uid(rng)
        chats = os.path.join(out, "tmp", f"proj{s % 5}", "chats")
        path = os.path.join(chats, f"session-2026-12-04T10-{s % 60:02d}-{sid[:8]}.jsonl")

        def chat(kind, session, n, pad):
            lines = [{"sessionId": session, "projectHash": "ab" * 32, "startTime": ts(BASE, 0),
                      "lastUpdated": ts(BASE, 0), "kind": kind}]
            listed = []
            for r in range(n):
                user = {"id": f"{session}-u{r}", "timestamp": ts(BASE, r), "type": "user",
                        "content": [{"text": "go on " + "x" * pad}]}
                lines.append(user)
                lines.append({"$set": {"lastUpdated": ts(BASE, r)}})
                p, c, o, th = usage(rng)
                tool = rng.randint(0, 20)
                tot.add(p - c + tool, o + th, c)
                msg = {"id": f"{session}-g{r}", "timestamp": ts(BASE, r), "type": "gemini", "content": "ok",
                       "thoughts": [], "tokens": {"input": p, "output": o, "cached": c, "thoughts": th,
                                                  "tool": tool, "total": p + o + th + tool},
                       "model": "gemini-2.5-flash"}
                lines.append(msg)
                # The same message again, its tool calls added.
                lines.append(dict(msg, toolCalls=[{"id": f"call-{r}", "name": "run_shell_command",
                                                   "args": {"command": "ls"}, "result": []}]))
                listed += [user, msg]
                if r % 4 == 3:
                    # The list written again whole with a `$set`.
                    lines.append({"$set": {"messages": list(listed), "lastUpdated": ts(BASE, r)}})
            return lines

        write_lines(path, chat("main", sid, a.responses, a.pad))
        agent = uid(rng)
        write_lines(os.path.join(chats, sid, f"{agent}.jsonl"), chat("subagent", agent, max(1, a.responses // 4), 10))
        tot.t["sessions"] += 1


def gen_codex(out, a, rng, tot):
    def usage_of(p, c, o, th):
        return {"input_tokens": p, "cached_input_tokens": c, "cache_write_input_tokens": 0,
                "output_tokens": o, "reasoning_output_tokens": th, "total_tokens": p + o}

    for s in range(a.sessions):
        root, child = uid(rng), uid(rng)
        day = os.path.join(out, "sessions", "2026", "12", f"{4 + s % 3:02d}")
        for thread, parent, n in ((root, None, a.responses), (child, root, max(1, a.responses // 4))):
            meta = {"session_id": root, "id": thread, "timestamp": ts(BASE, 0), "cwd": f"/home/dev/x{s % 5}",
                    "originator": "codex_exec", "cli_version": "0.171.0", "source": "exec",
                    "model_provider": "openai"}
            if parent:
                meta.update({"parent_thread_id": parent, "thread_source": "subagent", "agent_nickname": "Hume",
                             "source": {"subagent": {"thread_spawn": {"parent_thread_id": parent, "depth": 1}}}})
            k = 0

            def line(kind, payload):
                nonlocal k
                k += 1
                return {"timestamp": ts(BASE, k), "ordinal": k, "type": kind, "payload": payload}

            turn = f"turn-{thread}"
            lines = [line("session_meta", meta),
                     line("event_msg", {"type": "task_started", "turn_id": turn, "started_at": BASE // 1000}),
                     line("turn_context", {"turn_id": turn, "cwd": meta["cwd"], "model": "gpt-5"})]
            running = usage_of(0, 0, 0, 0)
            for r in range(n):
                lines.append(line("response_item", {"type": "message", "role": "user",
                                                    "content": [{"type": "input_text", "text": "go " + "x" * a.pad}]}))
                p, c, o, th = usage(rng)
                tot.add(p - c, o, c)
                u = usage_of(p, c, o, th)
                for key in running:
                    running[key] += u[key]
                lines.append(line("token_usage_record", {"thread_id": thread, "turn_id": turn, "session_id": root,
                                                         "response_id": f"resp-{thread}-{r}", "usage": u,
                                                         "thread_token_usage": dict(running)}))
                # The same numbers again as running totals (never counted).
                lines.append(line("event_msg", {"type": "token_count", "info": {
                    "total_token_usage": dict(running), "last_token_usage": u}}))
            lines.append(line("event_msg", {"type": "task_complete", "turn_id": turn, "last_agent_message": "done"}))
            name = f"rollout-2026-12-04T10-00-{s % 60:02d}-{thread}.jsonl"
            write_lines(os.path.join(day, name), lines)
        tot.t["sessions"] += 1


def gen_vibe(out, a, rng, tot):
    store = os.path.join(out, "unified")
    gen = "0000000000000021"

    def session(name, sid, parent, n, start):
        d = os.path.join(store, name)
        calls = []
        for r in range(n):
            p, c, o, th = usage(rng)
            tot.add(p - c, o, c)
            calls.append((f"{sid}-c{r}", p, c, o, th))
        records, seq = [], 0
        # Older journal segments are deleted at a snapshot: the first half
        # of the calls survive only in the running totals.
        kept = calls[n // 2:]
        for action, p, c, o, th in kept:
            seq += 1
            records.append({"payload": {"input": {"determinism": {"time_unix_ms": start + seq * 1000},
                            "command": {"type": "user_message", "content": [{"type": "text", "text": "go " + "x" * a.pad}]}}},
                            "sequence": seq, "type": "core_input"})
            seq += 1
            records.append({"payload": {"action_id": action, "result": {"action_id": action, "result": {
                "finish_reason": "stop", "parts": [{"type": "text", "text": "ok"}],
                "usage": {"cache_write_tokens": 0, "cached_input_tokens": c, "input_tokens": p,
                          "output_tokens": o, "reasoning_tokens": th, "total_tokens": p + o}},
                "type": "completion_succeeded"}, "state": "succeeded"}, "sequence": seq, "type": "action_result"})
        write_lines(os.path.join(d, "journal", f"{n // 2 * 2 + 1:016d}.jsonl"), records)
        totals = {"inputTokens": sum(x[1] for x in calls), "cachedInputTokens": sum(x[2] for x in calls),
                  "outputTokens": sum(x[3] for x in calls)}
        totals["totalTokens"] = totals["inputTokens"] + totals["outputTokens"]
        os.makedirs(os.path.join(d, "generations", gen), exist_ok=True)
        with open(os.path.join(d, "CURRENT"), "w") as f:
            json.dump({"generation": gen, "session_id": sid, "snapshot_sequence": 21,
                       "store_format": "mistral.vibe.unified-session-store/v1", "store_format_minor": 10}, f)
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump({"session_id": sid, "parent_session_id": parent,
                       "environment": {"working_directory": "/home/dev/v"},
                       "config": {"active_model": "fake", "model_name": "fake-model"}}, f)
        with open(os.path.join(d, "generations", gen, "projection-state.json"), "w") as f:
            json.dump({"projection_state_version": 1, "session_id": sid, "snapshot": {"session": {
                "id": sid, "parentSessionId": parent, "createdAt": start, "updatedAt": start + 99999,
                "title": None, "tokenUsage": totals}}}, f)
        with open(os.path.join(d, "generations", gen, "runtime-state.json"), "w") as f:
            json.dump({"actions": [{"action_id": x[0], "kind": "completion", "state": "succeeded",
                                    "request_pruned": True, "result_pruned": True} for x in calls]}, f)

    for s in range(a.sessions):
        sid = uid(rng)
        child = f"child-{rng.getrandbits(64):016x}"
        start = BASE + s * 100_000
        session(sid, sid, None, a.responses, start)
        session(child, child, sid, max(2, a.responses // 4), start + 500)
        tot.t["sessions"] += 1


GENERATORS = {"pi": gen_pi, "qwen": gen_qwen, "copilot": gen_copilot, "opencode": gen_opencode,
              "kimi": gen_kimi, "droid": gen_droid, "kilo": gen_kilo, "cline": gen_cline,
              "hermes": gen_hermes, "openclaw": gen_openclaw, "gemini": gen_gemini, "codex": gen_codex,
              "vibe": gen_vibe}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("format", choices=sorted(GENERATORS))
    ap.add_argument("out")
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--responses", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pad", type=int, default=200)
    a = ap.parse_args()
    rng = random.Random(f"{a.format}-{a.seed}")
    tot = Totals()
    GENERATORS[a.format](a.out, a, rng, tot)
    with open(os.path.join(a.out, "expected_totals.json"), "w") as f:
        json.dump(tot.t, f, indent=1)
    print(json.dumps(tot.t))


if __name__ == "__main__":
    main()
