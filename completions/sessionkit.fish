# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sessionkit_global_optspecs
    string join \n db= format= json q/quiet no-progress wide color= h/help V/version
end

function __fish_sessionkit_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sessionkit_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sessionkit_using_subcommand
    set -l cmd (__fish_sessionkit_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sessionkit -n "__fish_sessionkit_needs_command" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_needs_command" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_needs_command" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_needs_command" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -s V -l version -d 'Print version'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "ingest" -d 'Read every agent\'s transcripts on this machine into the database (incremental)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "replay" -d 'Re-project every session whose files still exist, ignoring checkpoints'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "sources" -d 'Which agents\' transcripts are on this machine: roots, sessions, what is skipped and why'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "sessions" -d 'List sessions with their token totals'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "show" -d 'One session: agents, tokens per agent and model, degraded lines; its conversation as Markdown'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "search" -d 'Find what agents and users said: prompts, answers, tool calls, across every agent\'s sessions'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "tree" -d 'The agent tree of a session: who spawned whom, status, duration, tokens'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "cost" -d 'What the agents cost: tokens and exact dollars by day, week, month, session, model, ...'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "limits" -d 'Usage-limit history: each five-hour and weekly window, its stated share, spend and pace'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "report" -d 'One self-contained HTML file: cost over time, top sessions, agent trees, limits, memory'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "pricing" -d 'The price table: list, set a model\'s price, import LiteLLM\'s price map'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "prune" -d 'Remove projected transcript data older than a date (never memories or runs)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "push" -d 'Write sessions, agents and messages into a team\'s PostgreSQL database, exactly once'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "check" -d 'Integrity report for CI: degraded lines, failures, a recount against the files; --golden DIR checks a golden corpus'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "brief" -d 'The briefing a session starts with (what a hook injects); --explain says why'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "mcp" -d 'A read-only Model Context Protocol server on stdio: agents search their history, memories, sessions and costs mid-session'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "hook" -d 'Record a harness\'s lifecycle event from stdin (register in the harness\'s hook settings)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "statusline" -d 'Claude Code\'s status line: model, exact costs, the five-hour and weekly limits and their pace'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "hooks" -d 'Register sessionkit\'s hooks in each harness\'s settings; status; doctor'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "status" -d 'Which sessions and agents are working, waiting, finished or silent'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "sweep" -d 'Periodic upkeep for cron: open sessions\' transcripts caught up; the watchdog marks silent agents unknown; runs past their lease close'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "remember" -d 'Record a memory (decision, commitment, constraint, ...); prints its id'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "revise" -d 'Supersede a memory with a changed version (history kept), or move a commitment between open and waiting'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "resolve" -d 'Resolve a commitment (a blocker is archived)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "unresolve" -d 'Reopen a resolved or expired commitment'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "archive" -d 'Archive a memory (a commitment expires)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "recall" -d 'Search memories by words, best first, with a highlighted snippet'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "memories" -d 'List memories (live ones unless --all)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "memory" -d 'One memory in full, or redact one'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "export" -d 'Write every memory, commitment and audit event as deterministic JSON Lines; or the transcripts as OpenTelemetry (--format otlp-json, --otlp-endpoint)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "import" -d 'Replay an export file (same ids and times; idempotent)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "session" -d 'Agent runs: open, heartbeat, close, show, list, and the memory events a run wrote'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "triage" -d 'The turn-end handshake: begin arms one debrief attempt, complete finalizes it'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "prompt" -d 'Prompts sessionkit gives agents: debrief (what the Stop nudge injects)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "eval" -d 'Measure the closer on labeled cases (recall, precision, spurious resolves)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "config" -d 'Read and write runtime settings'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "completions" -d 'Print shell completions (or write them all into a directory)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "man" -d 'Print the man page (or write every page into a directory)'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "schema" -d 'Print the JSON Schema of a command\'s JSON output'
complete -c sessionkit -n "__fish_sessionkit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l root -d 'Corpus root, repeatable [default: each agent\'s own folders where they exist, each moved by its agent\'s variable, as `sessionkit sources` lists them]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l max-line-size -d 'Per-line size cap in bytes; a longer line is a degraded line (files have no cap) [default: setting ingest.max_line_size, 64 MiB]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l harness -d 'Read only this agent\'s sessions' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l strict -d 'Fail a session on its first malformed line instead of skipping the line (exit 1)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l strict-pricing -d 'Fail a session that has a model with no price instead of keeping it unpriced (exit 1)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand ingest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l root -d 'Corpus root, repeatable [default: each agent\'s own folders where they exist, each moved by its agent\'s variable, as `sessionkit sources` lists them]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l max-line-size -d 'Per-line size cap in bytes; a longer line is a degraded line (files have no cap) [default: setting ingest.max_line_size, 64 MiB]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l harness -d 'Read only this agent\'s sessions' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l strict -d 'Fail a session on its first malformed line instead of skipping the line (exit 1)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l strict-pricing -d 'Fail a session that has a model with no price instead of keeping it unpriced (exit 1)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l root -d 'A root to look at, repeatable [default: every agent\'s own folders, as `ingest` reads them]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sources" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l project -d 'Only this project (its name, or Claude Code\'s folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l since -d 'Only sessions active since T (RFC 3339, YYYY-MM-DD or YYYYMMDD, a span such as 30d, or today, yesterday, this-week, last-week, this-month, last-month in --tz)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l until -d 'Only sessions started before T (same forms as --since; a date or a calendar word includes its whole span)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l tz -d 'Time zone of dates and calendar words (IANA name) [default: the local zone]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l limit -d 'At most N sessions (most recent first)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l harness -d 'Only this agent\'s sessions' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l degraded -d 'Only sessions with degraded (skipped) lines'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sessions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l at -d 'The conversation around this record (an id `search` prints): the pieces said before and after it by its agent; on a terminal the text itself with its line breaks, piped (or with --format) as records, or as Markdown with `--format markdown`' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l context -d 'With --at: how many pieces before and after it' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
text\t''
markdown\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l project -d 'Only this project\'s sessions (its name or Claude Code\'s folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l harness -d 'Only this agent\'s sessions' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l session -d 'Only this session (its id or a unique prefix)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l role -d 'Only what this role said: user (prompts), assistant (answers), tool (tool calls, and outputs when indexed)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l since -d 'Messages since T (RFC 3339, a date YYYY-MM-DD or YYYYMMDD, a span such as 30d, or today, yesterday, this-week, last-week, this-month, last-month; dates and words are days in --tz)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l until -d 'Messages before T (same forms as --since; a date or a calendar word includes its whole span)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l tz -d 'Time zone of days, weeks and months (IANA name) [default: the local zone]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l limit -d 'At most N hits' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l newest -d 'Newest first instead of best first'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l since -d 'With --all: sessions active since T (RFC 3339, YYYY-MM-DD, or a span such as 7d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l project -d 'With --all: only this project' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
text\t''
dot\t''
mermaid\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l all -d 'One tree per session (with --since / --project to choose them)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l ascii -d 'Plain ASCII branches instead of box-drawing characters'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l why -d 'Show how each parent was proven (join path and spawning tool_use id)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand tree" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l by -d 'Group by one or more keys, comma-separated (e.g. day,model)' -r -f -a "day\t''
week\t''
month\t''
session\t''
project\t''
harness\t''
model\t''
agent-type\t''
agent\t''
machine\t'The machine that pushed it (`--from`), else this one\'s label'
user\t'The person\'s label it was pushed with (`--from`; `-` where none was set), else this store\'s (`push.user`)'
block\t'The five-hour block the message falls in: a block starts at the first message after the previous one ended, floored to the hour (the usage-limit window, as message times show it)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l since -d 'Messages since T (RFC 3339, a date YYYY-MM-DD or YYYYMMDD, a span such as 30d, or today, yesterday, this-week, last-week, this-month, last-month; dates and words are days in --tz)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l until -d 'Messages before T (same forms as --since; a date or a calendar word includes its whole span)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l tz -d 'Time zone of days, weeks and months (IANA name) [default: the local zone]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l project -d 'Only this project (name or folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l session -d 'Only this session (id or unique prefix)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l harness -d 'Only this agent\'s sessions (its name or an alias: claude, codex, gemini, ...)' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l from -d 'Report from a team database `sessionkit push` writes (postgres://…; the password from PGPASSWORD), every machine\'s messages' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l chart -d 'Draw a bar chart of cost per row after the table (table format only)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l totals -d 'CSV and JSON Lines: end with a totals row (CSV: its first key says `total`; JSON Lines: `"total": true`). A table always has one; JSON is `{"rows": [...], "totals": {...}}`'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l segments -d 'With --session: cost per compaction segment (the segments sum to the session)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand cost" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l since -d 'Windows that end after T (RFC 3339, YYYY-MM-DD, or a span such as 7d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l tz -d 'Time zone a table shows times in (IANA name) [default: the local zone]; JSON keeps UTC' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l chart -d 'Draw each window\'s last stated share as a bar after the table (table format only)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l snapshots -d 'Every recorded change of the stated limits instead (one row per status line call that changed them), since --since'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand limits" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l out -d 'Write the report here (`-`: standard output); an existing file is replaced whole' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l since -d 'Messages since T (RFC 3339, a date YYYY-MM-DD or YYYYMMDD, a span such as 30d, or today, yesterday, this-week, last-week, this-month, last-month; dates and words are days in --tz)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l until -d 'Messages before T (same forms as --since; a date or a calendar word includes its whole span)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l tz -d 'Time zone of days, weeks and months (IANA name) [default: the local zone]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l project -d 'Only this project (name or folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l harness -d 'Only this agent\'s sessions (its name or an alias: claude, codex, gemini, ...)' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
openclaw\t'OpenClaw'
vibe\t'Mistral Vibe'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l html -d 'The report as HTML (its one format)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -f -a "list" -d 'The prices in force ($ per million tokens), embedded or set by you'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -f -a "set" -d 'Set a model\'s price ($ per million tokens); reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -f -a "import" -d 'Import LiteLLM\'s model_prices_and_context_window.json; reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and not __fish_seen_subcommand_from list set import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l model -d 'Only models whose id contains PATTERN' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l input -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l output -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l cache-read -d '[default: the input rate]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l cache-write-5m -d '[default: the input rate]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l cache-write-1h -d '[default: the 5-minute write rate]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from help" -f -a "list" -d 'The prices in force ($ per million tokens), embedded or set by you'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set a model\'s price ($ per million tokens); reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from help" -f -a "import" -d 'Import LiteLLM\'s model_prices_and_context_window.json; reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand pricing; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l before -d 'Remove sessions last active before this (RFC 3339, YYYY-MM-DD, or a span such as 90d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l project -d 'Only sessions of this project (name or folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l index -d 'Drop the search index (every text and place; the database file shrinks by its size); `replay` rebuilds it'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l dry-run -d 'Report what would be removed and change nothing (exit 1 if anything would be)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l machine -d 'This machine\'s label there [default: the push.machine setting, else the host name]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l since -d 'Only sessions active since (RFC 3339, YYYY-MM-DD, or a span such as 7d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l dry-run -d 'Say what would be sent; connect to nothing, change nothing (exit 1 if anything would be)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l with-memory -d 'Memories with their commitments (as stored: redacted) and agent runs (no text) too, changed since the last push with this flag; off by default, they are personal'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand push" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l root -d 'Corpus root, repeatable [default: each agent\'s own folders where they exist, each moved by its agent\'s variable, as `sessionkit sources` lists them]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l max-line-size -d 'Per-line size cap in bytes; a longer line is a degraded line (files have no cap) [default: setting ingest.max_line_size, 64 MiB]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l labels -d 'Compare stored parents with hand-written labels (`<session>.json` files in DIR)' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l golden -d 'Check a golden directory instead of this database: DIR/corpus/ read into two scratch databases (yours is never opened) must give equal rows, a clean recount, exactly the records in DIR/expected/ (a unified diff per file that differs) and the parents in DIR/labels/; prices pinned in DIR/prices.json. The first run on a new corpus blesses' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l min-accuracy -d 'With --labels: exit 1 when the share of correct parents is below this' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l no-recount -d 'Skip the recount (no transcript is read; only the database is checked)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l bless -d 'With --golden: write DIR/expected/ (and DIR/prices.json when none is pinned) from this build, and say which files changed'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l reprice -d 'With --golden: price with today\'s table, not DIR/prices.json (with --bless, pin today\'s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l project -d 'The project [default: the current directory\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l cwd -d 'Brief for this directory\'s project' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l harness -d 'The harness the briefing is for: its byte ceiling (briefing.max_bytes.<harness>; Codex at most 9,600)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l budget -d 'Token budget of the competing sections [default: setting briefing.budget_tokens]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l max-bytes -d 'Hard ceiling in bytes [default: setting briefing.max_bytes, or the harness\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l explain -d 'After the briefing, every candidate: section, score, bytes, rendered or why not'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l full -d 'No budget and no ceiling: every candidate'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand brief" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l project -d 'The project a call answers for when it names none [default: the project of the directory the client starts the server in]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l max-bytes -d 'At most N bytes of JSON in a tool\'s result: past it, records are left out and the result says how many' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "event" -d 'Record one lifecycle event from stdin and apply its status (any harness, any event)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "session-start" -d 'SessionStart: inject the briefing and open this conversation\'s run'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "session-end" -d 'SessionEnd: close this conversation\'s run (fast; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "stop" -d 'Stop (and StopFailure): end the turn; with the nudge on, ask once for a debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "user-prompt-submit" -d 'UserPromptSubmit: recall the memories the prompt\'s words find, as context'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "pre-compact" -d 'PreCompact: heartbeat this conversation\'s run (never opens one; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and not __fish_seen_subcommand_from event session-start session-end stop user-prompt-submit pre-compact help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from event" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from user-prompt-submit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l harness -d 'The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l delivery-id -d 'A unique id for this delivery: the same id twice stores one event' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l event -d 'The event\'s name, for a harness whose payloads do not name it (`hooks install` writes it) [default: the payload\'s, else the verb\'s]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "event" -d 'Record one lifecycle event from stdin and apply its status (any harness, any event)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "session-start" -d 'SessionStart: inject the briefing and open this conversation\'s run'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "session-end" -d 'SessionEnd: close this conversation\'s run (fast; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop (and StopFailure): end the turn; with the nudge on, ask once for a debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "user-prompt-submit" -d 'UserPromptSubmit: recall the memories the prompt\'s words find, as context'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "pre-compact" -d 'PreCompact: heartbeat this conversation\'s run (never opens one; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l template -d 'The line\'s layout: text with fields in braces [default: the model, the costs, then the limits when Claude Code states them]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand statusline" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -f -a "install" -d 'Register sessionkit\'s hooks in each harness\'s settings (merged, atomic, backed up)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -f -a "uninstall" -d 'Remove exactly the registrations install added (hand-written ones stay)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -f -a "status" -d 'What is registered where, event by event (with a client\'s trust in its hooks, and sessionkit\'s MCP server)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -f -a "doctor" -d 'Run each registered hook with its client\'s payload, check its output, latency and the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and not __fish_seen_subcommand_from install uninstall status doctor help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l harness -d 'Only this harness [default: every harness found]' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
cursor\t'Cursor'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l scope -d 'Whose settings: the user\'s, or the project\'s (the enclosing git work tree)' -r -f -a "user\t''
project\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l program -d 'The program the registrations run: a path (made absolute) or a name looked up on the client\'s PATH [default: this sessionkit\'s absolute path]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l dry-run -d 'Print the change as a diff and write nothing (exit 1 when there is one)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l force -d 'Change a settings file even when it is read-only (its mode has no write bit)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l with-nudge -d 'Also turn the turn-end debrief nudge on (setting nudge.enabled) in the database the hooks use'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l statusline -d 'Also register `sessionkit statusline` as Claude Code\'s status line (a status line of your own is left as it is; uninstall takes out only sessionkit\'s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l with-mcp -d 'Also register `sessionkit mcp` (a read-only MCP server over the database) where the client takes MCP servers, at user scope: Claude Code ~/.claude.json, Codex config.toml, Gemini CLI and Qwen Code their settings.json, Copilot CLI ~/.copilot/mcp-config.json, Droid ~/.factory/mcp.json, Kimi CLI ~/.kimi/mcp.json, OpenCode opencode.json and Kilo kilo.json in their config folders, Cline ~/.cline/data/settings/cline_mcp_settings.json, Hermes Agent its config.yaml\'s mcp_servers; an entry named sessionkit of your own is left as it is, and uninstall takes out only sessionkit\'s. The search index is built now, since the server only reads'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l harness -d 'Only this harness [default: every harness found]' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
cursor\t'Cursor'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l scope -d 'Whose settings: the user\'s, or the project\'s (the enclosing git work tree)' -r -f -a "user\t''
project\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l dry-run -d 'Print the change as a diff and write nothing (exit 1 when there is one)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l force -d 'Change a settings file even when it is read-only (its mode has no write bit)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l harness -d 'Only this harness [default: every one]' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
cursor\t'Cursor'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l scope -d 'Only this scope [default: both]' -r -f -a "user\t''
project\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l harness -d 'Only this harness [default: every one]' -r -f -a "claude-code\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
copilot\t'Copilot CLI'
qwen-code\t'Qwen Code'
pi\t'pi'
opencode\t'OpenCode'
kilo\t'Kilo'
kimi\t'Kimi CLI'
cline\t'Cline'
droid\t'Factory Droid'
hermes\t'Hermes Agent'
cursor\t'Cursor'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l scope -d 'Only this scope [default: both]' -r -f -a "user\t''
project\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "install" -d 'Register sessionkit\'s hooks in each harness\'s settings (merged, atomic, backed up)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove exactly the registrations install added (hand-written ones stay)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "status" -d 'What is registered where, event by event (with a client\'s trust in its hooks, and sessionkit\'s MCP server)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "doctor" -d 'Run each registered hook with its client\'s payload, check its output, latency and the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand hooks; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l project -d 'Only this project (its name, or Claude Code\'s folder slug)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l all -d 'Include finished and silent agents (completed, error, unknown)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l dry-run -d 'Print what would change and change nothing (exit 1 if anything would)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand sweep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l kind -d 'constraint, convention, decision, commitment, blocker, preference, fact, pattern, finding, note, stage' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l topic -d 'What it is about (at most 256 characters)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l description -d 'The one line a briefing index shows (at most 160 characters)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l content -d 'The memory itself (at most 2,000 characters; never split); `-` reads stdin' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l project -d '[default: the current directory\'s project: git remote origin\'s name, else the directory name]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l scope -d 'Kebab-case scope [default: project]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l tag -d 'A tag (repeat for more; at most 32 of at most 64 characters)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l due -d 'A commitment\'s due date: RFC 3339, YYYY-MM-DD, or a span ahead (3d, 12h, 2w)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l owner -d 'A commitment\'s owner' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l session-run-id -d 'The run this write belongs to (its events carry the id); without it, the write joins the project\'s only live run, if exactly one is live' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l pin -d 'Always show it at the top of a briefing'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l force -d 'Write it even when a live memory looks like the same thing'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand remember" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l kind -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l topic -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l description -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l content -d '`-` reads stdin' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l project -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l scope -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l tag -d 'Replaces the tags (repeat for more)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l due -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l owner -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l status -d 'Move a commitment between open and waiting' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l session-run-id -d 'The run this write belongs to (its events carry the id); without it, the write joins the project\'s only live run, if exactly one is live' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l clear-tags -d 'Removes every tag'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l pin
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l unpin
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l force
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand revise" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l session-run-id -d 'The run this write belongs to (its events carry the id); without it, the write joins the project\'s only live run, if exactly one is live' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand resolve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l session-run-id -d 'The run this write belongs to (its events carry the id); without it, the write joins the project\'s only live run, if exactly one is live' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand unresolve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l session-run-id -d 'The run this write belongs to (its events carry the id); without it, the write joins the project\'s only live run, if exactly one is live' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand archive" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l kind -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l project -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l limit -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l all -d 'Superseded and archived memories too'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand recall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l kind -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l project -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l status -d 'active, archived, or a commitment status: open, waiting, resolved, expired' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l since -d 'Only memories created since T (RFC 3339, YYYY-MM-DD, or a span such as 7d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l all -d 'Superseded and archived memories too'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l full -d 'Include each memory\'s content (a listing is an index; `memory show` and `export` give everything)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memories" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -f -a "show" -d 'One memory: its commitment state, its supersession chain and its events'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -f -a "redact" -d 'Replace a memory\'s content with a marker (a secret slipped in); the only way content leaves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and not __fish_seen_subcommand_from show redact help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l reason -d 'Why (kept in the audit event; never the content)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from redact" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "show" -d 'One memory: its commitment state, its supersession chain and its events'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "redact" -d 'Replace a memory\'s content with a marker (a secret slipped in); the only way content leaves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l project -d 'Only this project\'s memories (and their commitments and events)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l otlp-endpoint -d 'Send the transcripts\' token and cost metrics (Claude Code\'s names) and agent trees (as traces) to this OTLP/HTTP endpoint as JSON (`http://collector:4318`): what it has not taken yet, each message once across runs. Headers from OTEL_EXPORTER_OTLP_HEADERS and --otlp-header' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l otlp-header -d 'A header for the OTLP endpoint (KEY=VALUE; repeatable)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l out -d 'With --format otlp-json: write the OTLP/JSON lines here (`-`: standard output), as the Collector\'s otlpjsonfile receiver reads them' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l since -d 'The OpenTelemetry export\'s messages since T (RFC 3339, YYYY-MM-DD, or a span such as 30d)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "jsonl\t''
otlp-json\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "open" -d 'Open a run (or heartbeat, resume or reopen the existing one)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "heartbeat" -d 'Refresh a run\'s lease (a closed or stale run comes back to life)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "close" -d 'Close a run explicitly (idempotent)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "show" -d 'One run, by id or by --agent and --session-id'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "list" -d 'Runs, newest first'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "events" -d 'The memory events a run produced, a page at a time'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and not __fish_seen_subcommand_from open heartbeat close show list events help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l agent -d 'The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l session-id -d 'The harness\'s session id' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l source -d 'startup (a new conversation) or resume' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l project -d '[default: the current directory\'s project]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l scope -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l selector -d 'The briefing selector, a JSON object [default: {"kind":"all"}]' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l briefed -d 'The memories the briefing showed: a JSON array of {id, topic, status}, or - for stdin' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from open" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l agent -d 'The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l session-id -d 'The harness\'s session id' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l excerpt -d 'The last message, kept for the closer (trimmed, at most 4,000 characters); - reads stdin' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l turn -d 'Count this heartbeat as the end of a turn, as `hook stop` does (the triage debounce counts turns)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from heartbeat" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l agent -d 'The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l session-id -d 'The harness\'s session id' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from close" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l agent -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l session-id -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l project -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l live -d 'Only live runs'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l cursor -d 'The last event id of the previous page' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l limit -d 'Events per page (at most 100)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from events" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "open" -d 'Open a run (or heartbeat, resume or reopen the existing one)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "heartbeat" -d 'Refresh a run\'s lease (a closed or stale run comes back to life)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "close" -d 'Close a run explicitly (idempotent)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "show" -d 'One run, by id or by --agent and --session-id'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "list" -d 'Runs, newest first'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "events" -d 'The memory events a run produced, a page at a time'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -f -a "begin" -d 'Arm a triage attempt when the run has something to debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -f -a "complete" -d 'Finalize the pending attempt: completed when events arrived since its begin, expired when none did, overflowed past 500'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and not __fish_seen_subcommand_from begin complete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l agent -d 'The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l session-id -d 'The harness\'s session id' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l stop-hook-active -d 'This Stop is itself a continuation (the harness\'s stop_hook_active)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from begin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l agent -d 'The harness: claude-code (or claude), codex, gemini, cursor, copilot, or another kebab-case name' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l session-id -d 'The harness\'s session id' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l attempt -d 'The attempt `triage begin` armed' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from complete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from help" -f -a "begin" -d 'Arm a triage attempt when the run has something to debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from help" -f -a "complete" -d 'Finalize the pending attempt: completed when events arrived since its begin, expired when none did, overflowed past 500'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand triage; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -f -a "debrief" -d 'The debrief prompt: what to record, and which briefed commitments may be resolved'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and not __fish_seen_subcommand_from debrief help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l agent -d 'The harness of the run (with --session-id)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l session-id -d 'The harness\'s session id (with --agent)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l project -d 'The project, when no run is named' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l scope -d 'The scope, when no run is named' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l harness -d 'Size the prompt for this harness\'s ceiling' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from debrief" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from help" -f -a "debrief" -d 'The debrief prompt: what to record, and which briefed commitments may be resolved'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand prompt; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -f -a "closer" -d 'Replay labeled cases through the closer; recall, precision, spurious resolves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and not __fish_seen_subcommand_from closer help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l cases -d 'The folder of case files (*.json), read in name order' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l judge -d 'The judge: evidence (offline), or endpoint (the model that SESSIONKIT_CLOSER_ENDPOINT, SESSIONKIT_CLOSER_MODEL, SESSIONKIT_CLOSER_API and SESSIONKIT_CLOSER_API_KEY name; each case spends real calls)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l min-recall -d 'Exit 1 when the total recall is below this (0 to 1)' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l max-spurious -d 'Exit 1 when the total spurious resolves are more than this' -r
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l explain -d 'Also say, on stderr, why each commitment was resolved (the clause the judge read) and whether the case\'s label agrees'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from closer" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from help" -f -a "closer" -d 'Replay labeled cases through the closer; recall, precision, spurious resolves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand eval; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -f -a "get" -d 'Print the value in force (environment, else database, else default)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -f -a "set" -d 'Store a value in the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -f -a "unset" -d 'Remove a stored value (the default applies again)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -f -a "list" -d 'Every setting: value in force, where it comes from, its variable and default'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and not __fish_seen_subcommand_from get set unset list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print the value in force (environment, else database, else default)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Store a value in the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "unset" -d 'Remove a stored value (the default applies again)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "list" -d 'Every setting: value in force, where it comes from, its variable and default'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l dir -d 'Write bash, zsh and fish completions into DIR instead (what `completions/` holds)' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand completions" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l dir -d 'Write sessionkit.1 and one page per command into DIR (what `man/` holds)' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t'The tree\'s indented drawing (`tree` only; other commands print a table)'
dot\t'Graphviz (`tree` only)'
mermaid\t'Mermaid flowchart (`tree` only)'
markdown\t'A conversation as readable Markdown (`show` only)'
otlp-json\t'OpenTelemetry\'s OTLP/JSON, one request a line (`export` only)'"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l roff -d 'Print the page\'s roff source instead of reading it'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand man" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l format -d 'Output format [default: SESSIONKIT_FORMAT, else table on a terminal and jsonl when piped: `cost | less` gets JSON Lines]' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
text\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l db -d 'Database file [default: $SESSIONKIT_DB, else $XDG_DATA_HOME/sessionkit/sessionkit.db]' -r -F
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l color -d 'When to use colour (NO_COLOR is honoured under auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l json -d 'Short for --format json'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -s q -l quiet -d 'Print no notes or progress on stderr (errors still print)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l no-progress -d 'Never draw a progress bar'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -l wide -d 'Tables show ids and model names whole (else a table fitting a width shortens ids to their shortest unique prefix, which `show`, `tree` and the memory commands take, and model names to `sonnet-4-5`)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand schema" -s h -l help -d 'Print help'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "ingest" -d 'Read every agent\'s transcripts on this machine into the database (incremental)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "replay" -d 'Re-project every session whose files still exist, ignoring checkpoints'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "sources" -d 'Which agents\' transcripts are on this machine: roots, sessions, what is skipped and why'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "sessions" -d 'List sessions with their token totals'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "show" -d 'One session: agents, tokens per agent and model, degraded lines; its conversation as Markdown'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "search" -d 'Find what agents and users said: prompts, answers, tool calls, across every agent\'s sessions'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "tree" -d 'The agent tree of a session: who spawned whom, status, duration, tokens'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "cost" -d 'What the agents cost: tokens and exact dollars by day, week, month, session, model, ...'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "limits" -d 'Usage-limit history: each five-hour and weekly window, its stated share, spend and pace'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "report" -d 'One self-contained HTML file: cost over time, top sessions, agent trees, limits, memory'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "pricing" -d 'The price table: list, set a model\'s price, import LiteLLM\'s price map'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "prune" -d 'Remove projected transcript data older than a date (never memories or runs)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "push" -d 'Write sessions, agents and messages into a team\'s PostgreSQL database, exactly once'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "check" -d 'Integrity report for CI: degraded lines, failures, a recount against the files; --golden DIR checks a golden corpus'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "brief" -d 'The briefing a session starts with (what a hook injects); --explain says why'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "mcp" -d 'A read-only Model Context Protocol server on stdio: agents search their history, memories, sessions and costs mid-session'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "hook" -d 'Record a harness\'s lifecycle event from stdin (register in the harness\'s hook settings)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "statusline" -d 'Claude Code\'s status line: model, exact costs, the five-hour and weekly limits and their pace'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "hooks" -d 'Register sessionkit\'s hooks in each harness\'s settings; status; doctor'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "status" -d 'Which sessions and agents are working, waiting, finished or silent'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "sweep" -d 'Periodic upkeep for cron: open sessions\' transcripts caught up; the watchdog marks silent agents unknown; runs past their lease close'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "remember" -d 'Record a memory (decision, commitment, constraint, ...); prints its id'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "revise" -d 'Supersede a memory with a changed version (history kept), or move a commitment between open and waiting'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "resolve" -d 'Resolve a commitment (a blocker is archived)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "unresolve" -d 'Reopen a resolved or expired commitment'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "archive" -d 'Archive a memory (a commitment expires)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "recall" -d 'Search memories by words, best first, with a highlighted snippet'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "memories" -d 'List memories (live ones unless --all)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "memory" -d 'One memory in full, or redact one'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "export" -d 'Write every memory, commitment and audit event as deterministic JSON Lines; or the transcripts as OpenTelemetry (--format otlp-json, --otlp-endpoint)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "import" -d 'Replay an export file (same ids and times; idempotent)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "session" -d 'Agent runs: open, heartbeat, close, show, list, and the memory events a run wrote'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "triage" -d 'The turn-end handshake: begin arms one debrief attempt, complete finalizes it'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "prompt" -d 'Prompts sessionkit gives agents: debrief (what the Stop nudge injects)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "eval" -d 'Measure the closer on labeled cases (recall, precision, spurious resolves)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "config" -d 'Read and write runtime settings'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "completions" -d 'Print shell completions (or write them all into a directory)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "man" -d 'Print the man page (or write every page into a directory)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "schema" -d 'Print the JSON Schema of a command\'s JSON output'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and not __fish_seen_subcommand_from ingest replay sources sessions show search tree cost limits report pricing prune push check brief mcp hook statusline hooks status sweep remember revise resolve unresolve archive recall memories memory export import session triage prompt eval config completions man schema help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from pricing" -f -a "list" -d 'The prices in force ($ per million tokens), embedded or set by you'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from pricing" -f -a "set" -d 'Set a model\'s price ($ per million tokens); reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from pricing" -f -a "import" -d 'Import LiteLLM\'s model_prices_and_context_window.json; reprices stored messages'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "event" -d 'Record one lifecycle event from stdin and apply its status (any harness, any event)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "session-start" -d 'SessionStart: inject the briefing and open this conversation\'s run'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "session-end" -d 'SessionEnd: close this conversation\'s run (fast; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "stop" -d 'Stop (and StopFailure): end the turn; with the nudge on, ask once for a debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "user-prompt-submit" -d 'UserPromptSubmit: recall the memories the prompt\'s words find, as context'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "pre-compact" -d 'PreCompact: heartbeat this conversation\'s run (never opens one; no output)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "install" -d 'Register sessionkit\'s hooks in each harness\'s settings (merged, atomic, backed up)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "uninstall" -d 'Remove exactly the registrations install added (hand-written ones stay)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "status" -d 'What is registered where, event by event (with a client\'s trust in its hooks, and sessionkit\'s MCP server)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from hooks" -f -a "doctor" -d 'Run each registered hook with its client\'s payload, check its output, latency and the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "show" -d 'One memory: its commitment state, its supersession chain and its events'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "redact" -d 'Replace a memory\'s content with a marker (a secret slipped in); the only way content leaves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "open" -d 'Open a run (or heartbeat, resume or reopen the existing one)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "heartbeat" -d 'Refresh a run\'s lease (a closed or stale run comes back to life)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "close" -d 'Close a run explicitly (idempotent)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "show" -d 'One run, by id or by --agent and --session-id'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "list" -d 'Runs, newest first'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "events" -d 'The memory events a run produced, a page at a time'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from triage" -f -a "begin" -d 'Arm a triage attempt when the run has something to debrief'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from triage" -f -a "complete" -d 'Finalize the pending attempt: completed when events arrived since its begin, expired when none did, overflowed past 500'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from prompt" -f -a "debrief" -d 'The debrief prompt: what to record, and which briefed commitments may be resolved'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from eval" -f -a "closer" -d 'Replay labeled cases through the closer; recall, precision, spurious resolves'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "get" -d 'Print the value in force (environment, else database, else default)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Store a value in the database'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "unset" -d 'Remove a stored value (the default applies again)'
complete -c sessionkit -n "__fish_sessionkit_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "list" -d 'Every setting: value in force, where it comes from, its variable and default'
