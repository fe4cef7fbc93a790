//! The team database's side: sessionkit's own tables there, versioned like
//! the local store's, and the upserts a push makes.

use anyhow::Result;
use postgres::Client;
use postgres::types::ToSql;

use crate::store::push::SessionPush;

/// The versions of the team database's tables, each applied once, in order
/// (`sessionkit_meta.schema_version` says how many are).
const MIGRATIONS: &[&str] = &[
    // 1: machines, sessions, agents (with their parent edges), messages (one
    // row per API message id), and the daily sums reports read.
    "CREATE TABLE sessionkit_machines (
        machine        text PRIMARY KEY,
        first_push_at  timestamptz NOT NULL DEFAULT now(),
        last_push_at   timestamptz NOT NULL DEFAULT now()
     );
     CREATE TABLE sessionkit_sessions (
        session_id        text PRIMARY KEY,
        machine           text NOT NULL,
        harness           text NOT NULL,
        project           text,
        project_slug      text NOT NULL,
        harness_version   text,
        started_at        timestamptz,
        last_activity_at  timestamptz,
        status            text NOT NULL,
        pushed_at         timestamptz NOT NULL DEFAULT now()
     );
     CREATE TABLE sessionkit_agents (
        session_id       text NOT NULL REFERENCES sessionkit_sessions ON DELETE CASCADE,
        agent_id         text NOT NULL,
        parent_agent_id  text,
        layout           text NOT NULL,
        agent_type       text,
        join_path        text,
        status           text NOT NULL,
        first_seen_at    timestamptz,
        last_seen_at     timestamptz,
        PRIMARY KEY (session_id, agent_id)
     );
     CREATE TABLE sessionkit_messages (
        message_id             text PRIMARY KEY,
        session_id             text NOT NULL,
        agent_id               text NOT NULL,
        machine                text NOT NULL,
        harness                text NOT NULL,
        model                  text NOT NULL,
        occurred_at            timestamptz,
        input_tokens           bigint NOT NULL,
        output_tokens          bigint NOT NULL,
        cache_write_5m_tokens  bigint NOT NULL,
        cache_write_1h_tokens  bigint NOT NULL,
        cache_read_tokens      bigint NOT NULL,
        reasoning_tokens       bigint NOT NULL,
        cost_nanousd           bigint
     );
     CREATE INDEX sessionkit_messages_time ON sessionkit_messages (occurred_at);
     CREATE INDEX sessionkit_messages_session ON sessionkit_messages (session_id);
     CREATE VIEW sessionkit_daily AS
        SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, machine, harness, model,
               count(*) AS messages, sum(input_tokens) AS input_tokens,
               sum(output_tokens) AS output_tokens,
               sum(cache_write_5m_tokens) AS cache_write_5m_tokens,
               sum(cache_write_1h_tokens) AS cache_write_1h_tokens,
               sum(cache_read_tokens) AS cache_read_tokens,
               sum(reasoning_tokens) AS reasoning_tokens,
               sum(cost_nanousd) AS cost_nanousd
        FROM sessionkit_messages GROUP BY 1, 2, 3, 4;",
    // 2: memories and commitments, for `push --with-memory` (off by
    // default: they are personal).
    "CREATE TABLE sessionkit_memories (
        memory_id    text PRIMARY KEY,
        machine      text NOT NULL,
        kind         text NOT NULL,
        topic        text NOT NULL,
        description  text,
        content      text NOT NULL,
        project      text NOT NULL,
        scope        text NOT NULL,
        tags         text NOT NULL,
        status       text NOT NULL,
        pinned       boolean NOT NULL,
        supersedes   text,
        valid_from   timestamptz NOT NULL,
        valid_to     timestamptz,
        created_at   timestamptz NOT NULL,
        updated_at   timestamptz NOT NULL
     );
     CREATE TABLE sessionkit_commitments (
        memory_id    text PRIMARY KEY REFERENCES sessionkit_memories ON DELETE CASCADE,
        status       text NOT NULL,
        due_at       timestamptz,
        owner        text,
        resolved_at  timestamptz,
        updated_at   timestamptz NOT NULL
     );",
    // 3: who pushed each message (a person's label, for `--by user`).
    "ALTER TABLE sessionkit_messages ADD COLUMN user_label text;",
    // 4: the projects sessions ran in, and the prices the pushed costs used
    // (micro-dollars per million tokens, the base tier).
    "CREATE TABLE sessionkit_projects (
        project           text PRIMARY KEY,
        first_seen_at     timestamptz,
        last_activity_at  timestamptz
     );
     INSERT INTO sessionkit_projects
        SELECT project, min(started_at), max(last_activity_at) FROM sessionkit_sessions
        WHERE project IS NOT NULL GROUP BY project;
     CREATE TABLE sessionkit_prices (
        model                  text PRIMARY KEY,
        input_per_mtok         bigint NOT NULL,
        output_per_mtok        bigint NOT NULL,
        cache_read_per_mtok    bigint NOT NULL,
        cache_write_5m_per_mtok bigint NOT NULL,
        cache_write_1h_per_mtok bigint NOT NULL,
        machine                text NOT NULL,
        pushed_at              timestamptz NOT NULL DEFAULT now()
     );",
    // 5: agent runs, for `push --with-memory` (no message text).
    "CREATE TABLE sessionkit_runs (
        run_id         text PRIMARY KEY,
        machine        text NOT NULL,
        agent          text NOT NULL,
        session_id     text NOT NULL,
        source         text NOT NULL,
        project        text,
        opened_at      timestamptz NOT NULL,
        closed_at      timestamptz,
        last_seen_at   timestamptz NOT NULL,
        triage_status  text NOT NULL
     );",
];

/// The team database's schema version this binary writes.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// Creates or brings up to date sessionkit's tables, under an advisory
/// lock so two machines pushing at once do not race; returns the version.
pub(super) fn migrate(client: &mut Client) -> Result<i32> {
    let mut tx = client.transaction()?;
    tx.batch_execute(
        "SELECT pg_advisory_xact_lock(7306966374519931214);
         CREATE TABLE IF NOT EXISTS sessionkit_meta (key text PRIMARY KEY, value text NOT NULL);",
    )?;
    let found: i32 = tx
        .query_opt(
            "SELECT value FROM sessionkit_meta WHERE key = 'schema_version'",
            &[],
        )?
        .map(|r| r.get::<_, String>(0))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if found > SCHEMA_VERSION {
        anyhow::bail!(
            "the team database's sessionkit tables are version {found}, newer than this sessionkit knows ({SCHEMA_VERSION}): upgrade sessionkit"
        );
    }
    for sql in &MIGRATIONS[usize::try_from(found)?..] {
        tx.batch_execute(sql)?;
    }
    tx.execute(
        "INSERT INTO sessionkit_meta VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        &[&SCHEMA_VERSION.to_string()],
    )?;
    tx.commit()?;
    Ok(SCHEMA_VERSION)
}

pub(super) fn machine_seen(client: &mut Client, machine: &str) -> Result<()> {
    client.execute(
        "INSERT INTO sessionkit_machines (machine) VALUES ($1)
         ON CONFLICT (machine) DO UPDATE SET last_push_at = now()",
        &[&machine],
    )?;
    Ok(())
}

/// Rows per multi-row statement (15 parameters each).
const BATCH: usize = 500;

fn ts(ms: Option<i64>) -> Option<f64> {
    ms.map(|m| m as f64 / 1000.0)
}

/// One session in one transaction: its row, its agents (replaced), and its
/// counted messages merged into what is there by the counting rule.
pub(super) fn write_session(
    client: &mut Client,
    machine: &str,
    user: Option<&str>,
    s: &SessionPush,
    prices: &[(String, crate::domain::pricing::Rates)],
) -> Result<()> {
    let mut tx = client.transaction()?;
    let row = &s.session;
    if let Some(project) = &row.project {
        tx.execute(
            "INSERT INTO sessionkit_projects VALUES ($1, to_timestamp($2), to_timestamp($3))
             ON CONFLICT (project) DO UPDATE SET
                first_seen_at = LEAST(sessionkit_projects.first_seen_at, EXCLUDED.first_seen_at),
                last_activity_at = GREATEST(sessionkit_projects.last_activity_at, EXCLUDED.last_activity_at)",
            &[project, &ts(row.started_at), &ts(row.last_activity_at)],
        )?;
    }
    for (model, r) in prices {
        tx.execute(
            "INSERT INTO sessionkit_prices (model, input_per_mtok, output_per_mtok,
                cache_read_per_mtok, cache_write_5m_per_mtok, cache_write_1h_per_mtok, machine)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (model) DO UPDATE SET input_per_mtok = EXCLUDED.input_per_mtok,
                output_per_mtok = EXCLUDED.output_per_mtok,
                cache_read_per_mtok = EXCLUDED.cache_read_per_mtok,
                cache_write_5m_per_mtok = EXCLUDED.cache_write_5m_per_mtok,
                cache_write_1h_per_mtok = EXCLUDED.cache_write_1h_per_mtok,
                machine = EXCLUDED.machine, pushed_at = now()",
            &[
                model,
                &r.input,
                &r.output,
                &r.cache_read,
                &r.cache_write_5m,
                &r.cache_write_1h,
                &machine,
            ],
        )?;
    }
    tx.execute(
        "INSERT INTO sessionkit_sessions (session_id, machine, harness, project, project_slug,
            harness_version, started_at, last_activity_at, status, pushed_at)
         VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7), to_timestamp($8), $9, now())
         ON CONFLICT (session_id) DO UPDATE SET
            machine = LEAST(sessionkit_sessions.machine, EXCLUDED.machine),
            harness = EXCLUDED.harness, project = EXCLUDED.project,
            project_slug = EXCLUDED.project_slug, harness_version = EXCLUDED.harness_version,
            started_at = LEAST(sessionkit_sessions.started_at, EXCLUDED.started_at),
            last_activity_at = GREATEST(sessionkit_sessions.last_activity_at, EXCLUDED.last_activity_at),
            status = CASE WHEN EXCLUDED.last_activity_at >= sessionkit_sessions.last_activity_at
                          OR sessionkit_sessions.last_activity_at IS NULL
                     THEN EXCLUDED.status ELSE sessionkit_sessions.status END,
            pushed_at = now()",
        &[
            &row.session_id,
            &machine,
            &row.harness,
            &row.project,
            &row.project_slug,
            &row.harness_version,
            &ts(row.started_at),
            &ts(row.last_activity_at),
            &row.status,
        ],
    )?;
    let upsert_agent = tx.prepare(
        "INSERT INTO sessionkit_agents (session_id, agent_id, parent_agent_id, layout, agent_type,
            join_path, status, first_seen_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8), to_timestamp($9))
         ON CONFLICT (session_id, agent_id) DO UPDATE SET
            parent_agent_id = COALESCE(EXCLUDED.parent_agent_id, sessionkit_agents.parent_agent_id),
            layout = EXCLUDED.layout, agent_type = EXCLUDED.agent_type,
            join_path = COALESCE(EXCLUDED.join_path, sessionkit_agents.join_path),
            status = EXCLUDED.status,
            first_seen_at = LEAST(sessionkit_agents.first_seen_at, EXCLUDED.first_seen_at),
            last_seen_at = GREATEST(sessionkit_agents.last_seen_at, EXCLUDED.last_seen_at)",
    )?;
    for a in &s.agents {
        tx.execute(
            &upsert_agent,
            &[
                &row.session_id,
                &a.agent_id,
                &a.parent_agent_id,
                &a.layout,
                &a.agent_type,
                &a.join_path,
                &a.status,
                &ts(a.first_seen_at),
                &ts(a.last_seen_at),
            ],
        )?;
    }
    for chunk in s.messages.chunks(BATCH) {
        let mut sql = String::from(
            "INSERT INTO sessionkit_messages (message_id, session_id, agent_id, machine, harness,
                model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens,
                cache_write_1h_tokens, cache_read_tokens, reasoning_tokens, cost_nanousd,
                user_label) VALUES ",
        );
        let mut params: Vec<&(dyn ToSql + Sync)> = Vec::with_capacity(chunk.len() * 15);
        let times: Vec<Option<f64>> = chunk.iter().map(|m| ts(m.at)).collect();
        for (i, (m, at)) in chunk.iter().zip(&times).enumerate() {
            let b = i * 15;
            if i > 0 {
                sql.push(',');
            }
            // ($1,…,$6,to_timestamp($7),$8,…,$15) for the row's 15 values.
            let marks: Vec<String> = (1..=15)
                .map(|k| match k {
                    7 => format!("to_timestamp(${})", b + k),
                    _ => format!("${}", b + k),
                })
                .collect();
            sql.push_str(&format!("({})", marks.join(",")));
            params.extend_from_slice(&[
                &m.message_id,
                &row.session_id,
                &m.agent_id,
                &machine,
                &row.harness,
                &m.model,
                at,
                &m.tokens[0],
                &m.tokens[1],
                &m.tokens[2],
                &m.tokens[3],
                &m.tokens[4],
                &m.tokens[5],
                &m.cost,
                &user,
            ]);
        }
        // The counting rule, as the local store applies it: every bucket
        // the largest stated, the model of the largest output (ties: the
        // smallest name), the earliest time; the session and machine the
        // smallest of those holding it, so the row is the same whatever
        // order the pushes came in.
        sql.push_str(
            " ON CONFLICT (message_id) DO UPDATE SET
                session_id = LEAST(sessionkit_messages.session_id, EXCLUDED.session_id),
                agent_id = CASE WHEN EXCLUDED.session_id < sessionkit_messages.session_id
                    THEN EXCLUDED.agent_id ELSE sessionkit_messages.agent_id END,
                machine = LEAST(sessionkit_messages.machine, EXCLUDED.machine),
                user_label = CASE WHEN EXCLUDED.machine < sessionkit_messages.machine
                    THEN EXCLUDED.user_label
                    ELSE COALESCE(sessionkit_messages.user_label, EXCLUDED.user_label) END,
                model = CASE
                    WHEN EXCLUDED.output_tokens > sessionkit_messages.output_tokens THEN EXCLUDED.model
                    WHEN EXCLUDED.output_tokens < sessionkit_messages.output_tokens THEN sessionkit_messages.model
                    ELSE LEAST(sessionkit_messages.model, EXCLUDED.model) END,
                occurred_at = LEAST(sessionkit_messages.occurred_at, EXCLUDED.occurred_at),
                input_tokens = GREATEST(sessionkit_messages.input_tokens, EXCLUDED.input_tokens),
                output_tokens = GREATEST(sessionkit_messages.output_tokens, EXCLUDED.output_tokens),
                cache_write_5m_tokens = GREATEST(sessionkit_messages.cache_write_5m_tokens, EXCLUDED.cache_write_5m_tokens),
                cache_write_1h_tokens = GREATEST(sessionkit_messages.cache_write_1h_tokens, EXCLUDED.cache_write_1h_tokens),
                cache_read_tokens = GREATEST(sessionkit_messages.cache_read_tokens, EXCLUDED.cache_read_tokens),
                reasoning_tokens = GREATEST(sessionkit_messages.reasoning_tokens, EXCLUDED.reasoning_tokens),
                cost_nanousd = GREATEST(sessionkit_messages.cost_nanousd, EXCLUDED.cost_nanousd)",
        );
        tx.execute(sql.as_str(), &params)?;
    }
    tx.commit()?;
    Ok(())
}

/// Every message of the team database in `f` (a project by name or folder
/// slug, a session by id), as the local store gives its cost rows.
pub(super) fn each_cost_row(
    client: &mut Client,
    f: &crate::store::costs::CostFilter,
    mut visit: impl FnMut(crate::store::costs::CostRow),
) -> Result<()> {
    use crate::store::costs::{CostRow, RowKeys, one};
    let rows = client.query(
        "SELECT (extract(epoch FROM m.occurred_at) * 1000)::bigint, m.session_id, m.agent_id,
                m.model, s.project, m.harness, a.agent_type, m.machine,
                m.input_tokens, m.output_tokens, m.cache_write_5m_tokens, m.cache_write_1h_tokens,
                m.cache_read_tokens, m.reasoning_tokens, m.cost_nanousd, m.user_label
         FROM sessionkit_messages m
         LEFT JOIN sessionkit_sessions s ON s.session_id = m.session_id
         LEFT JOIN sessionkit_agents a ON a.session_id = m.session_id AND a.agent_id = m.agent_id
         WHERE ($1::bigint IS NULL OR m.occurred_at >= to_timestamp($1::bigint / 1000.0))
           AND ($2::bigint IS NULL OR m.occurred_at < to_timestamp($2::bigint / 1000.0))
           AND ($3::text IS NULL OR s.project = $3 OR s.project_slug = $3)
           AND ($4::text IS NULL OR m.session_id = $4)
           AND ($5::text IS NULL OR m.harness = $5)",
        &[&f.since, &f.until, &f.project, &f.session, &f.harness],
    )?;
    for r in rows {
        let n = |i: usize| -> u64 { r.get::<_, i64>(i).max(0) as u64 };
        let tokens = crate::domain::transcript::Buckets {
            input: n(8),
            output: n(9),
            cache_write_5m: n(10),
            cache_write_1h: n(11),
            cache_read: n(12),
            reasoning: n(13),
        };
        visit(CostRow {
            keys: RowKeys {
                session_id: r.get(1),
                agent_id: r.get(2),
                model: r.get(3),
                project: r.get(4),
                harness: r.get(5),
                agent_type: r.get(6),
                machine: Some(r.get(7)),
                user: Some(
                    r.get::<_, Option<String>>(15)
                        .unwrap_or_else(|| "-".to_string()),
                ),
            },
            at: r.get(0),
            totals: one(tokens, r.get(14)),
        });
    }
    Ok(())
}

/// Memories and their commitments, in one transaction: a row there is
/// replaced only by one updated later (a memory is edited on one machine).
pub(super) fn write_memories(
    client: &mut Client,
    machine: &str,
    rows: &[crate::store::push::MemoryFields],
) -> Result<()> {
    let mut tx = client.transaction()?;
    let memory = tx.prepare(
        "INSERT INTO sessionkit_memories (memory_id, machine, kind, topic, description, content,
            project, scope, tags, status, pinned, supersedes, valid_from, valid_to, created_at,
            updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, to_timestamp($13),
                 to_timestamp($14), to_timestamp($15), to_timestamp($16))
         ON CONFLICT (memory_id) DO UPDATE SET
            kind = EXCLUDED.kind, topic = EXCLUDED.topic, description = EXCLUDED.description,
            content = EXCLUDED.content, project = EXCLUDED.project, scope = EXCLUDED.scope,
            tags = EXCLUDED.tags, status = EXCLUDED.status, pinned = EXCLUDED.pinned,
            supersedes = EXCLUDED.supersedes, valid_from = EXCLUDED.valid_from,
            valid_to = EXCLUDED.valid_to, updated_at = EXCLUDED.updated_at
         WHERE sessionkit_memories.updated_at <= EXCLUDED.updated_at",
    )?;
    let commitment = tx.prepare(
        "INSERT INTO sessionkit_commitments (memory_id, status, due_at, owner, resolved_at, updated_at)
         VALUES ($1, $2, to_timestamp($3), $4, to_timestamp($5), to_timestamp($6))
         ON CONFLICT (memory_id) DO UPDATE SET
            status = EXCLUDED.status, due_at = EXCLUDED.due_at, owner = EXCLUDED.owner,
            resolved_at = EXCLUDED.resolved_at, updated_at = EXCLUDED.updated_at
         WHERE sessionkit_commitments.updated_at <= EXCLUDED.updated_at",
    )?;
    for m in rows {
        tx.execute(
            &memory,
            &[
                &m.memory_id,
                &machine,
                &m.kind,
                &m.topic,
                &m.description,
                &m.content,
                &m.project,
                &m.scope,
                &m.tags,
                &m.status,
                &m.pinned,
                &m.supersedes,
                &ts(Some(m.valid_from)),
                &ts(m.valid_to),
                &ts(Some(m.created_at)),
                &ts(Some(m.updated_at)),
            ],
        )?;
        if let Some(c) = &m.commitment {
            tx.execute(
                &commitment,
                &[
                    &m.memory_id,
                    &c.status,
                    &ts(c.due_at),
                    &c.owner,
                    &ts(c.resolved_at),
                    &ts(Some(c.updated_at)),
                ],
            )?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Agent runs, in one transaction: a row is replaced by a later view of it.
pub(super) fn write_runs(
    client: &mut Client,
    machine: &str,
    rows: &[crate::store::push::RunFields],
) -> Result<()> {
    let mut tx = client.transaction()?;
    let stmt = tx.prepare(
        "INSERT INTO sessionkit_runs VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7),
            to_timestamp($8), to_timestamp($9), $10)
         ON CONFLICT (run_id) DO UPDATE SET closed_at = EXCLUDED.closed_at,
            last_seen_at = EXCLUDED.last_seen_at, triage_status = EXCLUDED.triage_status,
            project = EXCLUDED.project
         WHERE sessionkit_runs.last_seen_at <= EXCLUDED.last_seen_at",
    )?;
    for r in rows {
        tx.execute(
            &stmt,
            &[
                &r.run_id,
                &machine,
                &r.agent,
                &r.session_id,
                &r.source,
                &r.project,
                &ts(Some(r.opened_at)),
                &ts(r.closed_at),
                &ts(Some(r.last_seen_at)),
                &r.triage_status,
            ],
        )?;
    }
    tx.commit()?;
    Ok(())
}
