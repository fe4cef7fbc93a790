// __CLIENT__ runs this extension in its own process. It hands the
// session's events to sessionkit's hook commands (JSON on stdin, in Claude
// Code's payload shape) and applies what they answer: the briefing and a
// prompt's recall join the system prompt of every turn (a turn's system
// prompt is its own), a debrief prompt follows a finished turn once.
// Every error is caught and a command past its time is killed: the client
// never waits longer than a handler's budget, nor fails because of this
// file. Plain JavaScript, so it loads as it is.
__RUNNER__
/** The text of an assistant message. */
function said(message) {
  const content = (message && message.content) || []
  if (typeof content === "string") return content
  return content
    .filter((c) => c && c.type === "text")
    .map((c) => c.text)
    .join("\n")
}

export default function sessionkit(pi) {
  const starts = new Map() // a session's start: its briefing
  const continuing = new Set() // sessions whose turn sessionkit continued

  const base = (ctx) => {
    const m = ctx && ctx.sessionManager
    return {
      session_id: (m && m.getSessionId && m.getSessionId()) || "",
      transcript_path: (m && m.getSessionFile && m.getSessionFile()) || undefined,
      cwd: (ctx && ctx.cwd) || process.cwd(),
    }
  }

  const start = (ctx, source) => {
    const b = base(ctx)
    if (!b.session_id) return Promise.resolve("")
    if (!starts.has(b.session_id)) {
      starts.set(
        b.session_id,
        run("SessionStart", { ...b, source }).then((a) => text(a, "additionalContext")),
      )
    }
    return starts.get(b.session_id)
  }

  const on = (name, f) => {
    try {
      pi.on(name, async (event, ctx) => {
        try {
          return await f(event || {}, ctx)
        } catch (e) {
          return undefined
        }
      })
    } catch (e) {}
  }

  on("session_start", async (event, ctx) => {
    await start(ctx, event.reason === "resume" || event.reason === "fork" ? "resume" : "startup")
  })

  on("before_agent_start", async (event, ctx) => {
    const b = base(ctx)
    if (!b.session_id) return undefined
    const briefing = await start(ctx, "resume")
    const a = await run("UserPromptSubmit", { ...b, prompt: event.prompt || "" })
    const added = [briefing, text(a, "additionalContext")].filter((t) => t).join("\n\n")
    if (!added) return undefined
    return { systemPrompt: (event.systemPrompt || "") + "\n\n" + added }
  })

  on("turn_end", async (event, ctx) => {
    // A turn that ran tools goes on; the one without ends the prompt.
    if (Array.isArray(event.toolResults) && event.toolResults.length > 0) return
    const b = base(ctx)
    if (!b.session_id) return
    const message = event.message || {}
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      runSync("StopFailure", {
        ...b,
        error: message.stopReason,
        error_message: message.errorMessage || "",
      })
      return
    }
    const again = continuing.has(b.session_id)
    continuing.delete(b.session_id)
    // pi does not wait for this handler before it looks for a follow-up:
    // the answer is waited for here, the client held until it comes.
    const a = runSync("Stop", { ...b, stop_hook_active: again, last_assistant_message: said(message) })
    const reason = text(a, "reason")
    if (!again && a && a.decision === "block" && reason) {
      continuing.add(b.session_id)
      pi.sendUserMessage(reason, { deliverAs: "followUp" })
    }
  })

  on("session_before_compact", async (event, ctx) => {
    await run("PreCompact", { ...base(ctx), trigger: "auto" })
  })

  on("session_shutdown", async (event, ctx) => {
    await run("SessionEnd", { ...base(ctx), reason: (event && event.reason) || "other" })
  })
}
