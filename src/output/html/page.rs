//! The page around the report's sections: its head, its style (light and
//! dark, a phone's width to a desktop's), its title and contents.

use super::esc;
use crate::domain::clock::format_instant;
use crate::store::overview::Overview;

/// The style: CSS variables for the two themes; chart series `s0`…`s9`.
const STYLE: &str = r#"
:root{--bg:#ffffff;--fg:#1d2127;--muted:#5b6470;--line:#d9dde3;--card:#f5f7fa;--link:#0b5cad;
--c0:#3b6fd4;--c1:#e07b39;--c2:#3aa37a;--c3:#c9463d;--c4:#8c62c4;--c5:#8a6a4f;--c6:#d66fb0;--c7:#6d7683;--c8:#b5b43a;--c9:#33a7b8}
@media (prefers-color-scheme:dark){:root{--bg:#14171b;--fg:#e4e7eb;--muted:#9aa3ad;--line:#343a42;--card:#1c2026;--link:#79b0f2;
--c0:#6f9cf0;--c1:#f09a5f;--c2:#5cc497;--c3:#ec6f66;--c4:#ad88e3;--c5:#b8967a;--c6:#ec93cb;--c7:#9aa3ad;--c8:#d6d55c;--c9:#5ccbdc}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1100px;margin:0 auto;padding:16px}
header h1{font-size:1.5em;margin:.2em 0}
header p{color:var(--muted);margin:.2em 0}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1em}
a{color:var(--link)}
section{margin:1.6em 0}
h2{font-size:1.2em;border-bottom:1px solid var(--line);padding-bottom:.2em}
h3{font-size:1.05em}
small{color:var(--muted);font-weight:normal;word-break:break-all}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:8px;margin:0}
.figures div{background:var(--card);border-radius:6px;padding:8px 12px}
.figures dt{color:var(--muted);font-size:.85em}
.figures dd{margin:0;font-size:1.3em;font-weight:600}
.chart{width:100%;height:auto;aspect-ratio:960/280;display:block}
.chart .grid line{stroke:var(--line);stroke-width:1}
.chart text{fill:var(--muted);font-size:12px}
.chart .line{fill:none;stroke-width:2}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.2em 1em;font-size:.9em}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.35em;vertical-align:-.05em}
.s0{fill:var(--c0);stroke:var(--c0);background:var(--c0)}.s1{fill:var(--c1);stroke:var(--c1);background:var(--c1)}
.s2{fill:var(--c2);stroke:var(--c2);background:var(--c2)}.s3{fill:var(--c3);stroke:var(--c3);background:var(--c3)}
.s4{fill:var(--c4);stroke:var(--c4);background:var(--c4)}.s5{fill:var(--c5);stroke:var(--c5);background:var(--c5)}
.s6{fill:var(--c6);stroke:var(--c6);background:var(--c6)}.s7{fill:var(--c7);stroke:var(--c7);background:var(--c7)}
.s8{fill:var(--c8);stroke:var(--c8);background:var(--c8)}.s9{fill:var(--c9);stroke:var(--c9);background:var(--c9)}
.series .point{stroke:none}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);white-space:nowrap}
td:last-child,th:last-child{text-align:right}
.session{background:var(--card);border-radius:8px;padding:4px 14px 10px;margin:12px 0}
.meta,.note,.empty{color:var(--muted)}
.tree{font-size:.93em}
.agent{margin:2px 0}
.children{margin-left:1.1em;border-left:1px dashed var(--line);padding-left:.7em}
summary{cursor:pointer}
.leaf{padding-left:1.1em}
.who{font-weight:600}
.what{color:var(--muted)}
.status{font-size:.85em;padding:0 .4em;border-radius:3px;background:var(--line)}
.st-error{background:var(--c3);color:#fff}
.st-working{background:var(--c0);color:#fff}
@media (max-width:600px){body{font-size:14px}main{padding:10px}.figures dd{font-size:1.1em}
.chart text{font-size:26px}.chart .x-labels text:nth-child(2n){display:none}}
"#;

/// The document around `body`, with the figures' JSON.
pub fn document(o: &Overview, body: &str, data: &str) -> String {
    let period = match (o.since, o.until) {
        (Some(a), Some(b)) => format!("{} to {}", format_instant(a), format_instant(b)),
        (Some(a), None) => format!("since {}", format_instant(a)),
        (None, Some(b)) => format!("until {}", format_instant(b)),
        (None, None) => "all of it".to_string(),
    };
    let project = o
        .project
        .as_deref()
        .map(|p| format!(" · project {}", esc(p)))
        .unwrap_or_default()
        + &o.harness
            .as_deref()
            .map(|h| {
                format!(
                    " · {}",
                    esc(crate::domain::clients::named(h).map_or(h, |c| c.label))
                )
            })
            .unwrap_or_default();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"color-scheme\" content=\"light dark\">\
<title>sessionkit report</title><style>{STYLE}</style></head><body><main>\
<header><h1>What the agents did</h1><p>{period}{project} · generated {}</p></header>\
<nav><ul><li><a href=\"#summary\">Summary</a></li><li><a href=\"#cost-by-model\">Cost by model</a></li>\
<li><a href=\"#cost-by-harness\">Cost by agent</a></li><li><a href=\"#tokens\">Tokens</a></li>\
<li><a href=\"#top\">Top</a></li><li><a href=\"#sessions\">Sessions</a></li>\
<li><a href=\"#limits\">Limits</a></li><li><a href=\"#memory\">Memory</a></li></ul></nav>\
{body}\
<script type=\"application/json\" id=\"sessionkit-report\">{data}</script>\
</main></body></html>\n",
        format_instant(o.generated_at)
    )
}
