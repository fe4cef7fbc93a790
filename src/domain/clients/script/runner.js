// The hook commands, and how one is run: JSON on stdin, its answer parsed
// from stdout, killed past its budget, every error caught.
import { spawn, spawnSync } from "node:child_process"

const HANDLERS = __HANDLERS__

/** Runs `event`'s command with `payload`; its parsed answer, or null. */
function run(event, payload) {
  const h = HANDLERS[event]
  if (!h) return Promise.resolve(null)
  return new Promise((resolve) => {
    let out = ""
    let done = false
    let timer = null
    const finish = (value) => {
      if (done) return
      done = true
      if (timer) clearTimeout(timer)
      resolve(value)
    }
    try {
      // A group of its own, so whatever the command started goes with it.
      const child = spawn("/bin/sh", ["-c", "exec " + h.command], {
        stdio: ["pipe", "pipe", "ignore"],
        detached: true,
      })
      timer = setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL")
        } catch (e) {}
        finish(null)
      }, (h.timeout || 10) * 1000)
      child.on("error", () => finish(null))
      child.stdout.on("data", (d) => {
        if (out.length < 1 << 20) out += d
      })
      child.on("close", () => {
        try {
          finish(out.trim() ? JSON.parse(out) : null)
        } catch (e) {
          finish(null)
        }
      })
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }))
    } catch (e) {
      finish(null)
    }
  })
}

/** A string field of an answer, or "". */
function text(answer, key) {
  return answer && typeof answer[key] === "string" ? answer[key] : ""
}

/** `run`, blocking the client until the command answers (for a client
 *  that goes on without waiting for its handlers). */
function runSync(event, payload) {
  const h = HANDLERS[event]
  if (!h) return null
  try {
    const r = spawnSync("/bin/sh", ["-c", "exec " + h.command], {
      input: JSON.stringify({ hook_event_name: event, ...payload }),
      stdio: ["pipe", "pipe", "ignore"],
      timeout: (h.timeout || 10) * 1000,
      killSignal: "SIGKILL",
      maxBuffer: 1 << 20,
    })
    const out = r && r.stdout ? String(r.stdout) : ""
    return out.trim() ? JSON.parse(out) : null
  } catch (e) {
    return null
  }
}
