//! The API's OpenAPI description as a judge: every answer a test client receives from
//! `/api/v1` is held to the description of its route, method and status, errors included
//! (the JSON Schema validator `jsonschema`, draft 2020-12, as OpenAPI 3.1 says).

use grognard::web::api::openapi::literal_fit;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One operation of the description.
pub struct Operation {
    pub method: String,
    pub template: String,
    /// Each status the operation may answer, with the validator of its body (none: no body).
    answers: BTreeMap<u16, Option<jsonschema::Validator>>,
}

pub struct Described {
    pub doc: Value,
    pub operations: Vec<Operation>,
    error: jsonschema::Validator,
}

/// A validator of `schema`, whose `$ref`s reach the description's components.
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": doc["components"],
        "allOf": [schema],
    });
    jsonschema::draft202012::new(&root)
        .unwrap_or_else(|e| panic!("the description's schema {schema} does not compile: {e}"))
}

pub fn described() -> &'static Described {
    static D: OnceLock<Described> = OnceLock::new();
    D.get_or_init(|| {
        let doc: Value =
            serde_json::from_str(grognard::web::api::openapi::description_json()).unwrap();
        let mut operations = Vec::new();
        for (template, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().unwrap() {
                let mut answers = BTreeMap::new();
                for (status, r) in op["responses"].as_object().unwrap() {
                    let schema = &r["content"]["application/json"]["schema"];
                    let v = (!schema.is_null()).then(|| validator(&doc, schema));
                    answers.insert(status.parse().unwrap(), v);
                }
                operations.push(Operation {
                    method: method.to_ascii_uppercase(),
                    template: template.clone(),
                    answers,
                });
            }
        }
        let error = validator(&doc, &json!({"$ref": "#/components/schemas/ErrorBody"}));
        Described {
            doc,
            operations,
            error,
        }
    })
}

impl Described {
    /// The operation a request reaches: of the templates with the most literal segments
    /// (the router picks literal routes, `/worlds/generate`, before `/worlds/{w}`), the one of
    /// the request's method; none when that path does not take the method.
    pub fn operation(&self, method: &str, path: &str) -> Option<&Operation> {
        let path = path.split('?').next().unwrap_or(path);
        let best = self
            .operations
            .iter()
            .filter_map(|o| literal_fit(&o.template, path))
            .max()?;
        self.operations
            .iter()
            .find(|o| o.method == method && literal_fit(&o.template, path) == Some(best))
    }

    /// Whether the answer is one the description allows.
    pub fn check(&self, method: &str, path: &str, status: u16, body: &str) -> Result<(), String> {
        if method == "HEAD" {
            return Ok(());
        }
        let Some(op) = self.operation(method, path) else {
            // No route (or an order that does not exist): a refusal, the credentials checked
            // first.
            if !(400..500).contains(&status) {
                return Err(format!(
                    "{method} {path} is not described, yet answered {status}"
                ));
            }
            return self.valid(&self.error, body, method, path, status);
        };
        let Some(answer) = op.answers.get(&status) else {
            return Err(format!(
                "{method} {} does not describe the status {status} it answered: {body}",
                op.template
            ));
        };
        match answer {
            None if body.is_empty() => Ok(()),
            None => Err(format!(
                "{method} {path} answered {status} with a body: {body}"
            )),
            Some(v) => self.valid(v, body, method, path, status),
        }
    }

    fn valid(
        &self,
        v: &jsonschema::Validator,
        body: &str,
        method: &str,
        path: &str,
        status: u16,
    ) -> Result<(), String> {
        let value: Value = serde_json::from_str(body)
            .map_err(|e| format!("{method} {path} answered {status} with no JSON ({e}): {body}"))?;
        let errors: Vec<String> = v
            .iter_errors(&value)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{method} {path} answered {status} not as described: {}\n{body}",
                errors.join("; ")
            ))
        }
    }
}

/// Panics when an `/api/v1` answer is not as described.
pub fn hold(method: &str, path: &str, status: u16, body: &str) {
    if !path.starts_with("/api/v1") {
        return;
    }
    if let Err(e) = described().check(method, path, status, body) {
        panic!("{e}");
    }
}
