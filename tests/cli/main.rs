//! Integration tests: they run the built `sessionkit` binary in a temp dir
//! with its own `SESSIONKIT_DB`, `HOME` and a fixed `SESSIONKIT_NOW`.

mod admin;
mod brief;
mod clients;
mod cline;
mod closer;
mod codex;
mod common;
mod copilot;
mod corpora;
mod cost;
mod current;
mod droid;
mod edges;
mod face;
mod gemini;
mod golden;
mod hermes;
mod hooks;
mod ingest;
mod install;
mod install_owned;
mod kilo;
mod kimi;
mod layers;
mod memory;
mod negative;
mod openclaw;
mod opencode;
mod otlp;
mod periods;
mod pi;
#[path = "../support/postgres.rs"]
mod postgres_server;
mod property;
mod push;
mod qwen;
mod report;
mod reports;
mod rig;
mod runs;
mod schema;
mod search;
mod search_lazy;
mod soak;
mod sources;
mod spool;
mod status;
mod statusline;
#[path = "../support/mod.rs"]
mod support;
mod titles;
mod tree;
mod triage;
mod vibe;
