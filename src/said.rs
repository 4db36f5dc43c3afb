//! What happened, said in each reader's language. An event or an alert keeps its sentence as
//! message keys and values (`said`, JSON); the reports, alerts and mails render it in the
//! reader's language when they are read. The English rendering is stored too (`summary`),
//! for the API and for rows written before sentences were kept this way.

use crate::i18n::{tr, Lang};
use fluent_bundle::FluentValue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A value put in a sentence: a number, a name as written, or a message said in the
/// reader's language (a terrain, a kind of company, a season).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = SaidValue)]
pub enum Value {
    Number(i64),
    Text(String),
    Message { t: String },
}

/// One clause: a message and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Clause {
    pub k: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub a: BTreeMap<String, Value>,
}

/// A sentence: clauses said one after the other.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(transparent)]
pub struct Said(pub Vec<Clause>);

impl Said {
    /// A sentence of the message `key` (every message of a sentence starts with `said-`).
    pub fn new(key: &str) -> Said {
        Said(Vec::new()).and(key)
    }

    /// A further clause.
    pub fn and(mut self, key: &str) -> Said {
        self.0.push(Clause {
            k: key.to_string(),
            a: BTreeMap::new(),
        });
        self
    }

    fn set(mut self, name: &str, v: Value) -> Said {
        if let Some(c) = self.0.last_mut() {
            c.a.insert(name.to_string(), v);
        }
        self
    }

    /// A value of the last clause.
    pub fn v(self, name: &str, v: Value) -> Said {
        self.set(name, v)
    }

    /// A number of the last clause.
    pub fn n(self, name: &str, v: impl Into<i64>) -> Said {
        self.set(name, Value::Number(v.into()))
    }

    /// A name of the last clause, as written.
    pub fn s(self, name: &str, v: impl Into<String>) -> Said {
        self.set(name, Value::Text(v.into()))
    }

    /// A value of the last clause said as the message `key`.
    pub fn m(self, name: &str, key: impl Into<String>) -> Said {
        self.set(name, Value::Message { t: key.into() })
    }

    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::new();
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(&tr(lang, "said-and", &[]));
            }
            let args: Vec<(&str, FluentValue)> =
                c.a.iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Value::Number(n) => FluentValue::from(*n),
                            Value::Text(s) => FluentValue::from(s.as_str()),
                            Value::Message { t } => FluentValue::from(tr(lang, t, &[])),
                        };
                        (k.as_str(), v)
                    })
                    .collect();
            out.push_str(&tr(lang, &c.k, &args));
        }
        out
    }

    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(s: &str) -> Option<Said> {
        serde_json::from_str(s)
            .ok()
            .filter(|s: &Said| !s.0.is_empty())
    }
}

/// A value said as the message `key`.
pub fn msg(key: &str) -> Value {
    Value::Message { t: key.to_string() }
}

/// A value as written.
pub fn text(s: impl Into<String>) -> Value {
    Value::Text(s.into())
}

/// A stored sentence in `lang`; the stored English when there is none.
pub fn stored(lang: Lang, said: &str, summary: &str) -> String {
    match Said::decode(said) {
        Some(s) if lang != Lang::En => s.render(lang),
        _ => summary.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_is_said_in_each_language_from_what_is_stored() {
        let s = Said::new("said-move")
            .s("name", "Lanciers")
            .n("x", 9)
            .n("y", 5)
            .n("ap", 1)
            .and("said-took-town")
            .s("town", "Valmy");
        let stored_text = s.encode();
        let back = Said::decode(&stored_text).expect("decodes");
        assert_eq!(back, s);
        assert_eq!(
            back.render(Lang::En),
            "Lanciers moved to (9, 5) for 1 AP; took the town of Valmy"
        );
        assert_eq!(
            back.render(Lang::Fr),
            "Lanciers se porte en (9, 5) pour 1 PA ; prend la ville de Valmy"
        );
    }

    #[test]
    fn values_said_as_messages_and_plurals_follow_the_language() {
        let s = Said::new("said-raise")
            .s("player", "anne")
            .s("name", "Garde")
            .m("kind", "kind-cavalry")
            .n("x", 2)
            .n("y", 3)
            .n("cost", 40);
        assert_eq!(
            s.render(Lang::En),
            "anne raised Garde (cavalry) at (2, 3) for 40"
        );
        assert_eq!(
            s.render(Lang::Fr),
            "anne lève Garde (cavalerie) en (2, 3) pour 40"
        );
        let heal = |n: i64| Said::new("said-heal").s("name", "Garde").n("healed", n);
        assert_eq!(heal(1).render(Lang::Fr), "Garde soigne 1 blessé");
        assert_eq!(heal(4).render(Lang::Fr), "Garde soigne 4 blessés");
    }

    /// Every message the code names (`"said-…"`, `"error-…"`, `"what-…"`) is in the English
    /// file (French is checked against English in `i18n`).
    #[test]
    fn every_message_named_in_the_code_exists() {
        let mut named = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for prefix in ["\"said-", "\"error-", "\"what-"] {
                        for (i, _) in text.match_indices(prefix) {
                            let key: String = text[i + 1..]
                                .chars()
                                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                                .collect();
                            // A prefix completed at run time (`what-{…}`) ends with '-'.
                            if !key.ends_with('-') {
                                named.push((path.display().to_string(), key));
                            }
                        }
                    }
                }
            }
        }
        assert!(named.len() > 60, "{}", named.len());
        let keys = crate::i18n::keys(Lang::En);
        for (file, key) in named {
            assert!(
                keys.contains(&key),
                "{file} names `{key}`, which no file has"
            );
        }
        for what in [
            "world",
            "company",
            "company of yours",
            "regiment of your nation",
            "token",
            "user",
        ] {
            let key = format!("what-{}", what.replace(' ', "-"));
            assert!(keys.contains(&key), "`not_found({what:?})` needs `{key}`");
        }
    }

    #[test]
    fn rows_without_a_sentence_keep_their_english() {
        assert_eq!(stored(Lang::Fr, "", "Turn 3 begins"), "Turn 3 begins");
        assert_eq!(stored(Lang::Fr, "not json", "x"), "x");
        let said = Said::new("said-turn").n("turn", 3).encode();
        assert_eq!(
            stored(Lang::Fr, &said, "Turn 3 begins"),
            "Le tour 3 commence"
        );
        assert_eq!(stored(Lang::En, &said, "Turn 3 begins"), "Turn 3 begins");
    }
}
