//! A transcript's format: which client's reader reads a file, decided once
//! from the file's path (each client's own file names) or the folder its
//! walk found it in, and carried with the file (in the resume state too).
//! What a format does is its client's declaration's (`Format::client`):
//! nothing here or elsewhere matches on a format.

/// The formats sessionkit reads.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Claude Code's JSON Lines: `<slug>/<uuid>.jsonl` and its agents'
    /// files (every layout `corpus::discover` walks).
    ClaudeCode,
    /// A Codex rollout: `rollout-*.jsonl`.
    Codex,
    /// A Gemini CLI chat: `…/chats/*.jsonl` (or an older whole-file
    /// `session-*.json`).
    GeminiCli,
    /// A Qwen Code chat: `…/chats/<uuid>.jsonl`, its subagents'
    /// `…/subagents/<uuid>/agent-<id>.jsonl`.
    QwenCode,
    /// A Copilot CLI session: `<uuid>/events.jsonl`.
    CopilotCli,
    /// A pi session: `--<cwd>--/<time>_<uuid>.jsonl`.
    Pi,
    /// A Kimi CLI wire: `<work dir>/<uuid>/wire.jsonl`, its subagents'
    /// `…/subagents/<id>/wire.jsonl`.
    KimiCli,
    /// A Kilo session: OpenCode's tables in Kilo's own database,
    /// `kilo.db#<id>`, read from its rows as OpenCode's are.
    Kilo,
    /// A Cline session document: `<id>/<id>.messages.json`, its
    /// subagents' `<id>/agent_<a>.messages.json` (each rewritten whole).
    Cline,
    /// An OpenCode session, read from its database's rows (or an older
    /// version's storage files), never line by line: `opencode.db#<id>`.
    OpenCode,
    /// A Mistral Vibe session, read from its session store's files (its
    /// journal and its latest snapshot): `unified#<id>`.
    Vibe,
    /// An OpenClaw session, read from its agent database's rows (pi's
    /// entries): `openclaw-agent.sqlite#<id>`.
    OpenClaw,
    /// A Hermes Agent session, read from its database's running totals:
    /// `state.db#<id>`.
    Hermes,
    /// A Factory Droid session: `<cwd slug>/<uuid>.jsonl`, its token
    /// totals in the `<uuid>.settings.json` beside it. Its path has Claude
    /// Code's shape: the walk knows it by its folder (a `.settings.json`
    /// beside the transcripts), never by its name.
    Droid,
}

impl Format {
    /// Every format, in the order a path is tested against them (the more
    /// particular names first: a Qwen Code chat is also under `chats/`).
    pub const ALL: [Format; 14] = [
        Format::OpenCode,
        Format::Kilo,
        Format::Hermes,
        Format::OpenClaw,
        Format::Vibe,
        Format::KimiCli,
        Format::Cline,
        Format::Codex,
        Format::CopilotCli,
        Format::QwenCode,
        Format::GeminiCli,
        Format::Pi,
        Format::Droid,
        Format::ClaudeCode,
    ];

    /// The client whose format it is.
    pub fn client(self) -> &'static crate::domain::clients::Client {
        crate::domain::clients::of_format(self)
    }

    /// The format of a session's file (its path relative to its root), as
    /// its name tells it (each client's own file names, the more
    /// particular first; Claude Code's, any `.jsonl` its layout holds,
    /// last): what the walk found, when it found it by its folder
    /// (`Format::Droid`), is carried with the file instead.
    pub fn of_file(rel: &str) -> Format {
        Format::ALL
            .into_iter()
            .find(|f| (f.client().reads.names)(rel))
            .unwrap_or(Format::ClaudeCode)
    }

    /// Whether a file (`rel`) of this format is a document written whole
    /// at every change (never read on from where a read stopped: a changed
    /// one is read again from its start).
    pub fn rewritten_whole(self, rel: &str) -> bool {
        (self.client().reads.rewritten_whole)(rel)
    }

    /// Whether the file's sidecar (the document beside it) is its running
    /// totals, read after it (`SessionParser::totals_document`), rather
    /// than a subagent's `.meta.json`, read before it.
    pub fn keeps_totals_beside(self) -> bool {
        self.client().reads.totals_beside.is_some()
    }

    /// Whether the file's lines may be scanned apart from reading them
    /// (the SSE2 block scanner knows Claude Code's records only).
    pub fn scans_apart(self) -> bool {
        self.client().reads.scans_apart
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_known_by_its_own_file_names() {
        let cases = [
            (
                "-home-dev-alpha/11111111-1111-4111-8111-111111111111.jsonl",
                Format::ClaudeCode,
            ),
            ("-home-dev-alpha/agent-a1b2c3d.jsonl", Format::ClaudeCode),
            (
                "2026/12/03/rollout-2026-12-03T20-01-09-x.jsonl",
                Format::Codex,
            ),
            (
                "abc/chats/session-2026-12-03T20-01-x.jsonl",
                Format::GeminiCli,
            ),
            (
                "-w-proj/chats/01a24400-cca1-4d6e-9f5e-1234567890ab.jsonl",
                Format::QwenCode,
            ),
            (
                "-w-proj/subagents/01a24400-cca1-4d6e-9f5e-1234567890ab/agent-x.jsonl",
                Format::QwenCode,
            ),
            (
                "01a24400-cca1-4d6e-9f5e-1234567890ab/events.jsonl",
                Format::CopilotCli,
            ),
            (
                "--w-proj--/2026-12-04T17-56-00-444Z_01a24400-cca1-4d6e-9f5e-1234567890ab.jsonl",
                Format::Pi,
            ),
            ("opencode.db#ses_a", Format::OpenCode),
            ("kilo.db#ses_a", Format::Kilo),
            ("state.db#20261205_185643_9c3bf7", Format::Hermes),
            (
                "openclaw-agent.sqlite#c2846bd9-41d6-47b1-b0e5-75a741dd6033",
                Format::OpenClaw,
            ),
            ("unified#4fc3e851-e21d-c458-bb09-772c2c646b50", Format::Vibe),
            (
                "ffb1fdc4c4540bda52600202cbe79505/71db871f-1743-4c09-b333-697b531f3d64/wire.jsonl",
                Format::KimiCli,
            ),
            (
                "ffb1fdc4c4540bda52600202cbe79505/71db871f-1743-4c09-b333-697b531f3d64/subagents/a1/wire.jsonl",
                Format::KimiCli,
            ),
            (
                "1796497512091_9ed0q/1796497512091_9ed0q.messages.json",
                Format::Cline,
            ),
            ("1796497512091_9ed0q/agent_a1.messages.json", Format::Cline),
        ];
        for (rel, want) in cases {
            assert_eq!(Format::of_file(rel), want, "{rel}");
        }
        assert_eq!(
            Format::ALL.iter().filter(|f| f.scans_apart()).count(),
            1,
            "only Claude Code's lines are scanned apart"
        );
    }
}
