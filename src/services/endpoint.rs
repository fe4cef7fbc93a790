//! The endpoint judge's one call: the
//! closer prompt to a model over HTTP, OpenAI-compatible
//! `/v1/chat/completions` or Anthropic `/v1/messages`, with a bounded timeout
//! and two retries after a timeout, a refused connection, a 429 or a 5xx.
//! A service: the prompt and the reply's rules are `continuity::closer`'s.

use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

/// Where and how to ask.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Base URL, e.g. `https://api.openai.com` (the path is added).
    pub url: String,
    /// `openai` or `anthropic`.
    pub api: String,
    pub model: String,
    /// From `SESSIONKIT_CLOSER_API_KEY`; never stored.
    pub key: Option<String>,
    pub timeout: Duration,
}

/// A model's answer and what it cost in tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Calls after the first, when the first fails in a way worth retrying.
const RETRIES: u32 = 2;

impl Endpoint {
    /// Asks `prompt`; the reply's text and token counts.
    pub fn ask(&self, prompt: &str) -> Result<Answer> {
        let agent = ureq::AgentBuilder::new().timeout(self.timeout).build();
        let mut last = anyhow!("no call made");
        for attempt in 0..=RETRIES {
            match self.once(&agent, prompt) {
                Ok(a) => return Ok(a),
                Err(Failure::Retry(e)) if attempt < RETRIES => last = e,
                Err(Failure::Retry(e) | Failure::Final(e)) => return Err(e),
            }
        }
        Err(last)
    }

    fn once(&self, agent: &ureq::Agent, prompt: &str) -> Result<Answer, Failure> {
        let base = self.url.trim_end_matches('/');
        let (path, body) = match self.api.as_str() {
            "anthropic" => (
                "/v1/messages",
                json!({"model": self.model, "max_tokens": 1024, "temperature": 0,
                       "messages": [{"role": "user", "content": prompt}]}),
            ),
            _ => (
                "/v1/chat/completions",
                json!({"model": self.model, "temperature": 0,
                       "messages": [{"role": "user", "content": prompt}]}),
            ),
        };
        let mut req = agent
            .post(&format!("{base}{path}"))
            .set("content-type", "application/json");
        if let Some(k) = &self.key {
            req = if self.api == "anthropic" {
                req.set("x-api-key", k)
                    .set("anthropic-version", "2023-06-01")
            } else {
                req.set("authorization", &format!("Bearer {k}"))
            };
        }
        let resp = match req.send_string(&body.to_string()) {
            Ok(r) => r,
            Err(ureq::Error::Status(code, _)) if code == 429 || code >= 500 => {
                return Err(Failure::Retry(anyhow!(
                    "the judge's endpoint answered {code}"
                )));
            }
            Err(ureq::Error::Status(code, _)) => {
                return Err(Failure::Final(anyhow!(
                    "the judge's endpoint answered {code}"
                )));
            }
            Err(e) => return Err(Failure::Retry(anyhow!("calling the judge's endpoint: {e}"))),
        };
        let text = resp
            .into_string()
            .map_err(|e| Failure::Retry(anyhow!("reading the judge's answer: {e}")))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| Failure::Final(anyhow!("the judge's endpoint sent no JSON: {e}")))?;
        answer(&self.api, &v).map_err(Failure::Final)
    }
}

enum Failure {
    Retry(anyhow::Error),
    Final(anyhow::Error),
}

/// The text and token counts of a response in `api`'s shape.
fn answer(api: &str, v: &Value) -> Result<Answer> {
    let n = |x: &Value| x.as_u64().unwrap_or(0);
    let (text, input, output) = if api == "anthropic" {
        let text: String = v["content"]
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("")
            })
            .unwrap_or_default();
        (
            text,
            n(&v["usage"]["input_tokens"]),
            n(&v["usage"]["output_tokens"]),
        )
    } else {
        let text = v["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        (
            text,
            n(&v["usage"]["prompt_tokens"]),
            n(&v["usage"]["completion_tokens"]),
        )
    };
    if text.trim().is_empty() {
        bail!("the judge's endpoint answered without text");
    }
    Ok(Answer {
        text,
        input_tokens: input,
        output_tokens: output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_response_shapes_give_text_and_tokens() {
        let openai = json!({"choices": [{"message": {"content": "{\"completed\":[]}"}}],
                            "usage": {"prompt_tokens": 120, "completion_tokens": 9}});
        assert_eq!(
            answer("openai", &openai).unwrap(),
            Answer {
                text: "{\"completed\":[]}".into(),
                input_tokens: 120,
                output_tokens: 9
            }
        );
        let anthropic = json!({"content": [{"type": "text", "text": "{\"completed\":"}, {"type": "text", "text": "[]}"}],
                               "usage": {"input_tokens": 80, "output_tokens": 4}});
        assert_eq!(
            answer("anthropic", &anthropic).unwrap().text,
            "{\"completed\":[]}"
        );
        assert!(answer("openai", &json!({"choices": []})).is_err());
    }
}
