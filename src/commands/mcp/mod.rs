//! `sessionkit mcp`: a Model Context Protocol server on stdio that lets an
//! agent ask its own history mid-session: what was said, the memories,
//! sessions, costs and the briefing. Read-only: the database is opened
//! read-only, and each tool runs the command line the CLI would, its JSON
//! captured instead of printed (`tools`), so a tool's records are the
//! CLI's records and `sessionkit schema` describes them.

mod args;
mod tools;

use std::path::PathBuf;

use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

use super::Ctx;
use crate::commands::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project a call answers for when it names none [default: the
    /// project of the directory the client starts the server in]
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// At most N bytes of JSON in a tool's result: past it, records are
    /// left out and the result says how many
    #[arg(long, value_name = "N", default_value_t = 65_536, value_parser = clap::value_parser!(u32).range(1024..))]
    pub max_bytes: u32,
}

/// The server: where the database is, and what a call defaults to.
#[derive(Debug, Clone)]
struct Server {
    db: PathBuf,
    project: Option<String>,
    max_bytes: usize,
}

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let server = Server {
        db: ctx.db.clone(),
        project: a.project.clone().or_else(|| working_project(&ctx.db)),
        max_bytes: a.max_bytes as usize,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .context("starting the MCP session on stdio")?;
        service.waiting().await.context("serving MCP on stdio")?;
        anyhow::Ok(())
    })?;
    Ok(Exit::Success)
}

/// The project of the directory the server runs in, as the hooks name it
/// (remembered in the database, else computed; never stored from here).
fn working_project(db: &std::path::Path) -> Option<String> {
    let cwd = std::env::current_dir().ok()?;
    let store = crate::store::Store::open_read_only(db).ok();
    let p = crate::services::project::named(store.as_ref(), &cwd);
    (!p.is_empty() && p != "unknown").then_some(p)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("sessionkit", env!("CARGO_PKG_VERSION")))
            .with_instructions(tools::INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let call = tools::Call {
            db: &self.db,
            project: self.project.as_deref(),
            max_bytes: self.max_bytes,
        };
        match call.run(&request.name, args) {
            Ok(answer) => Ok(answered(answer).into()),
            Err(tools::Failure::Arguments(why)) => Err(ErrorData::invalid_params(why, None)),
            Err(tools::Failure::Unknown(name)) => Err(ErrorData::invalid_params(
                format!("no tool named {name:?}: tools/list names them"),
                None,
            )),
            Err(tools::Failure::Command(why)) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(why)]).into())
            }
        }
    }
}

/// A tool's answer as MCP carries it: the structured result, and as text
/// the records' JSON, then the notes (what is cut, not indexed, unpriced).
fn answered(a: tools::Answer) -> CallToolResult {
    let mut text = a.structured["result"].to_string();
    for n in a.structured["notes"].as_array().into_iter().flatten() {
        text.push_str("\nsessionkit: ");
        text.push_str(n.as_str().unwrap_or_default());
    }
    let mut r = CallToolResult::structured(a.structured);
    r.content = vec![ContentBlock::text(text)];
    r
}
