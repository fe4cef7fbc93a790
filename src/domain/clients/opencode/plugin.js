// __CLIENT__ runs this plugin in its own process. It hands the session's
// events to sessionkit's hook commands (JSON on stdin, in Claude Code's
// payload shape) and applies what they answer: the briefing and a
// prompt's recall join the system prompt of each request, a debrief
// prompt continues a finished turn once. Every error is caught and a
// command past its time is killed: the client never waits longer than a
// handler's budget, nor fails because of this file. It imports nothing
// from npm, so it loads offline.
__RUNNER__
export const Sessionkit = async (input) => {
  const client = input && input.client
  const cwd = (input && (input.directory || input.worktree)) || process.cwd()
  const parents = new Map() // a child session's parent
  const starts = new Map() // a main session's start: its briefing
  const recalls = new Map() // a prompt's recall, for the next request
  const continuing = new Set() // sessions whose turn sessionkit continued
  const base = (sid) => ({ session_id: sid, cwd })

  const start = (sid, source) => {
    if (!starts.has(sid)) {
      starts.set(
        sid,
        run("SessionStart", { ...base(sid), source }).then((a) => text(a, "additionalContext")),
      )
    }
    return starts.get(sid)
  }

  // Queues `reason` as the session's next user message and returns once
  // the client has stored it: the turn's loop, which waits for this hook,
  // then finds it and goes on. Returning earlier races the end of the
  // turn (`run` exits on an idle session before the message lands).
  const queue = async (sid, reason) => {
    const parts = [{ type: "text", text: reason }]
    const args = { sessionID: sid, parts, path: { id: sid }, body: { parts } }
    const s = client.session
    if (typeof s.promptAsync !== "function") {
      // An older client: its prompt answers only when the loop it joins
      // ends, so it cannot be awaited here.
      Promise.resolve(s.prompt(args)).catch(() => {})
      return
    }
    await s.promptAsync(args)
    if (typeof s.messages !== "function") return
    const until = Date.now() + 5000
    while (Date.now() < until) {
      const r = await s.messages({ sessionID: sid, path: { id: sid } })
      const list = (r && (r.data || r)) || []
      const stored = Array.isArray(list) && list.some((m) => {
        const info = (m && m.info) || {}
        return info.role === "user" && (m.parts || []).some((x) => x && x.text === reason)
      })
      if (stored) return
      await new Promise((done) => setTimeout(done, 25))
    }
  }

  const safe =
    (f) =>
    async (...args) => {
      try {
        await f(...args)
      } catch (e) {}
    }

  return {
    event: safe(async ({ event }) => {
      const p = (event && event.properties) || {}
      const sid = p.sessionID || (p.info && p.info.id)
      if (!sid) return
      if (event.type === "session.created") {
        const parent = p.info && p.info.parentID
        if (parent) {
          parents.set(sid, parent)
          await run("SubagentStart", {
            ...base(parent),
            agent_id: sid,
            agent_type: (p.info && p.info.agent) || "",
          })
        } else {
          await start(sid, "startup")
        }
      } else if (event.type === "session.idle" && parents.has(sid)) {
        await run("SubagentStop", { ...base(parents.get(sid)), agent_id: sid, stop_hook_active: false })
      } else if (event.type === "session.error" && !parents.has(sid)) {
        const e = p.error || {}
        const message = (e.data && e.data.message) || e.message || ""
        await run("StopFailure", { ...base(sid), error: e.name || "error", error_message: message })
      } else if (event.type === "session.compacted" && !parents.has(sid)) {
        await run("SessionStart", { ...base(sid), source: "compact" })
      }
    }),
    "chat.message": safe(async (inp, output) => {
      const sid = inp && inp.sessionID
      if (!sid || parents.has(sid)) return
      await start(sid, "resume")
      const parts = (output && output.parts) || []
      const prompt = parts
        .filter((x) => x && x.type === "text" && !x.synthetic)
        .map((x) => x.text)
        .join("\n")
      const a = await run("UserPromptSubmit", { ...base(sid), prompt })
      const recall = text(a, "additionalContext")
      if (recall) recalls.set(sid, recall)
    }),
    "experimental.chat.system.transform": safe(async (inp, output) => {
      const sid = inp && inp.sessionID
      // Only a session that was created or prompted: a side request
      // (a title's) has a session id of its own.
      if (!sid || !starts.has(sid) || !output || !Array.isArray(output.system)) return
      const briefing = await starts.get(sid)
      if (briefing) output.system.push(briefing)
      const recall = recalls.get(sid)
      if (recall) output.system.push(recall)
    }),
    "experimental.text.complete": safe(async (inp, output) => {
      const sid = inp && inp.sessionID
      if (!sid || !starts.has(sid)) return
      const again = continuing.has(sid)
      continuing.delete(sid)
      recalls.delete(sid)
      const a = await run("Stop", {
        ...base(sid),
        stop_hook_active: again,
        last_assistant_message: (output && output.text) || "",
      })
      const reason = text(a, "reason")
      if (!again && a && a.decision === "block" && reason && client && client.session) {
        continuing.add(sid)
        await queue(sid, reason)
      }
    }),
    "experimental.session.compacting": safe(async (inp) => {
      const sid = inp && inp.sessionID
      if (sid && !parents.has(sid)) await run("PreCompact", { ...base(sid), trigger: "auto" })
    }),
  }
}
