//! The one way an order comes in, for the JSON API and the page forms alike: the action's
//! name and its fields, where a cell is `[x, y]` or `"x,y"`, a path is a list of cells or
//! `"x,y x,y …"` (spaces or `;` between cells), and a number is a number or its digits.
//! A page form's fields are strings, the API's are JSON: both are read here, so a rule about
//! input is written once.

use crate::game::play::orders::Order;
use crate::game::{GameError, GameResult};
use crate::rules::Pos;
use crate::said::{self, Said};
use serde_json::Value;

/// A field that is missing, null or blank counts as not sent.
fn sent<'a>(body: &'a Value, name: &str) -> Option<&'a Value> {
    body.get(name).filter(|v| match v {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        _ => true,
    })
}

fn required<'a>(body: &'a Value, name: &str, what: &str) -> GameResult<&'a Value> {
    sent(body, name).ok_or_else(|| {
        GameError::Invalid(
            Said::new("error-give")
                .m("what", what)
                .s("field", name)
                .into(),
        )
    })
}

fn coordinate(v: &Value) -> Option<i32> {
    match v {
        Value::Number(n) => n.as_i64().and_then(|n| i32::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A cell: `[x, y]` or `"x,y"`.
pub fn cell(v: &Value, what: said::Value) -> GameResult<Pos> {
    let bad = || GameError::Invalid(Said::new("error-not-cell").v("what", what.clone()).into());
    match v {
        Value::Array(a) => match a.as_slice() {
            [x, y] => Ok(Pos::new(
                coordinate(x).ok_or_else(bad)?,
                coordinate(y).ok_or_else(bad)?,
            )),
            _ => Err(bad()),
        },
        Value::String(s) => {
            let (x, y) = s.split_once(',').ok_or_else(bad)?;
            Ok(Pos::new(
                x.trim().parse().map_err(|_| bad())?,
                y.trim().parse().map_err(|_| bad())?,
            ))
        }
        _ => Err(bad()),
    }
}

/// A path: a list of cells, or cells `x,y` separated by spaces or `;`.
fn path(v: &Value) -> GameResult<Vec<Pos>> {
    match v {
        Value::Array(steps) => steps
            .iter()
            .map(|s| cell(s, said::msg("what-each-step")))
            .collect(),
        Value::String(s) => s
            .split(|c: char| c == ';' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| cell(&Value::String(s.into()), said::text(format!("`{s}`"))))
            .collect(),
        _ => Err(GameError::Invalid(Said::new("error-path").into())),
    }
}

/// A whole number within an `i32`.
fn whole(v: &Value, what: &str) -> GameResult<i32> {
    coordinate(v)
        .ok_or_else(|| GameError::Invalid(Said::new("error-not-whole").m("what", what).into()))
}

/// The order an action's fields describe.
pub fn parse(action: &str, body: &Value) -> GameResult<Order> {
    Ok(match action {
        "move" => match (sent(body, "path"), sent(body, "to")) {
            (Some(p), None) => Order::MovePath(path(p)?),
            (None, Some(to)) => Order::MoveTo(cell(to, said::msg("what-destination"))?),
            (Some(_), Some(_)) => {
                return Err(GameError::Invalid(
                    Said::new("error-to-or-path-not-both").into(),
                ))
            }
            (None, None) => return Err(GameError::Invalid(Said::new("error-to-or-path").into())),
        },
        "volley" | "melee" => {
            let target = whole(
                required(body, "target", "what-company-to-attack")?,
                "what-target",
            )?;
            if action == "volley" {
                Order::Volley { target }
            } else {
                Order::Melee { target }
            }
        }
        "bombard" | "build-bridge" | "repair" | "ram" | "build-siege-tower" => {
            let at = cell(required(body, "at", "what-cell")?, said::msg("what-cell"))?;
            match action {
                "bombard" => Order::Bombard { at },
                "repair" => Order::Repair { at },
                "ram" => Order::Ram { at },
                "build-siege-tower" => Order::BuildSiegeTower { at },
                _ => Order::BuildBridge { at },
            }
        }
        "heal" => Order::Heal,
        "reinforce" => Order::Reinforce {
            men: whole(
                required(body, "men", "what-how-many-men")?,
                "what-number-of-men",
            )?,
        },
        other => {
            let said = Said::new("error-no-action").s("action", other);
            return Err(GameError::NotFound(said.into()));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_and_form_fields_read_the_same() {
        let as_json = parse("move", &json!({"path": [[3, 2], [4, 2]]})).unwrap();
        let as_form = parse("move", &json!({"path": "3,2 4,2", "to": ""})).unwrap();
        assert!(matches!((&as_json, &as_form), (Order::MovePath(a), Order::MovePath(b)) if a == b));
        let j = parse("melee", &json!({"target": 12})).unwrap();
        let f = parse("melee", &json!({"target": " 12 "})).unwrap();
        assert!(matches!(
            (j, f),
            (Order::Melee { target: 12 }, Order::Melee { target: 12 })
        ));
        assert!(matches!(
            parse("bombard", &json!({"at": "5, 6"})).unwrap(),
            Order::Bombard { at } if at == Pos::new(5, 6)
        ));
    }

    #[test]
    fn bad_fields_are_refused_with_what_was_expected() {
        for (action, body) in [
            ("move", json!({})),
            ("move", json!({"to": [1, 2], "path": [[1, 2]]})),
            ("move", json!({"to": [1e300, 2]})),
            ("move", json!({"to": [2147483648i64, 2]})),
            ("move", json!({"path": "3,2 x,y"})),
            ("move", json!({"path": {"a": 1}})),
            ("volley", json!({"target": "twelve"})),
            ("melee", json!({})),
            ("reinforce", json!({"men": 1.5})),
            ("repair", json!({"at": [1]})),
        ] {
            let e = parse(action, &body).unwrap_err();
            assert_eq!(e.code(), "invalid", "{action} {body}: {e}");
        }
        assert_eq!(parse("dance", &json!({})).unwrap_err().code(), "not_found");
    }
}
