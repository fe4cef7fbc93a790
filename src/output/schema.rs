//! JSON Schemas of typed records, and the field list `--help` shows derived
//! from one, so the two cannot drift. Which command has which
//! record is `commands::contract`.

use serde_json::Value;

/// `T`'s JSON Schema as JSON, as it is written (a field left out when
/// empty is not required).
pub fn json_schema<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    serde_json::to_value(generator.into_root_schema_for::<T>()).expect("a schema is JSON")
}

/// The field list for a command's `--help`, from its schema: every
/// property, nested shapes in braces, a shape met again named as such.
pub fn help_text(command: &str, unit: &str, schema: &Value) -> String {
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    let mut seen = Vec::new();
    let listed = match schema.get("oneOf").and_then(Value::as_array) {
        // Records of several shapes told apart by a tag (`action`): each
        // shape's fields after its tag's value.
        Some(branches) if schema.get("properties").is_none() => branches
            .iter()
            .map(|b| {
                let tag = b["properties"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .find_map(|(k, p)| Some(format!("{k} {}", p.get("const")?.as_str()?)));
                format!(
                    "{}: {}",
                    tag.unwrap_or_default(),
                    fields(b, &defs, &mut seen)
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        _ => fields(schema, &defs, &mut seen),
    };
    format!("JSON ({unit}; `sessionkit schema {command}` prints the JSON Schema): {listed}")
}

/// The properties of an object schema, as `a, b {c, d}, e [{...}]`.
fn fields(schema: &Value, defs: &Value, seen: &mut Vec<String>) -> String {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return String::new();
    };
    props
        .iter()
        .map(|(name, p)| match shape(p, defs, seen) {
            Some(inner) => format!("{name} {inner}"),
            None => name.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The nested shape of a property (`{...}` or `[{...}]`), or its allowed
/// values (`(a|b)`), if it has one worth showing.
fn shape(p: &Value, defs: &Value, seen: &mut Vec<String>) -> Option<String> {
    if let Some(items) = p.get("items") {
        return shape(items, defs, seen).map(|s| format!("[{s}]"));
    }
    if let Some(any) = p.get("anyOf").and_then(Value::as_array) {
        return any.iter().find_map(|v| shape(v, defs, seen));
    }
    let name = p.get("$ref")?.as_str()?.rsplit('/').next()?.to_string();
    let def = defs.get(&name)?;
    let mut names = Vec::new();
    allowed_values(def, &mut names);
    if !names.is_empty() {
        return Some(format!("({})", names.join("|")));
    }
    if seen.contains(&name) {
        return Some(format!("{{the same shape as {name}}}"));
    }
    seen.push(name.clone());
    let inner = fields(def, defs, seen);
    seen.pop();
    Some(format!("{{{inner}}}"))
}

/// The string values an enum schema allows (`enum`, `const`, and those of
/// each `oneOf` branch), in order.
fn allowed_values(def: &Value, out: &mut Vec<String>) {
    if let Some(v) = def.get("enum").and_then(Value::as_array) {
        out.extend(v.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if let Some(c) = def.get("const").and_then(Value::as_str) {
        out.push(c.to_string());
    }
    if let Some(branches) = def.get("oneOf").and_then(Value::as_array) {
        for b in branches {
            allowed_values(b, out);
        }
    }
}
