//! The one way an order comes in, for the JSON API and the page forms alike: the action's
//! name and its fields (`wire::play::OrderFields`), where a cell is `[x, y]` or `"x,y"`, a
//! path is a list of cells or `"x,y x,y …"` (spaces or `;` between cells), and a number is a
//! number or its digits. A page form's fields are strings, the API's are JSON: both arrive as
//! the same typed fields, so a rule about input is written once.

use crate::game::play::orders::Order;
use crate::game::{GameError, GameResult};
use crate::ids::CompanyId;
use crate::rules::Pos;
use crate::said::{self, Said};
use crate::wire::input::{sent, Blank, CellRef, PathRef, Whole};
use crate::wire::play::OrderFields;

fn required<'a, T: Blank>(field: &'a Option<T>, name: &str, what: &str) -> GameResult<&'a T> {
    sent(field).ok_or_else(|| {
        GameError::Invalid(
            Said::new("error-give")
                .m("what", what)
                .s("field", name)
                .into(),
        )
    })
}

fn coordinate(v: &Whole) -> Option<i32> {
    match v {
        Whole::Number(n) => i32::try_from(*n).ok(),
        Whole::Digits(s) => s.trim().parse().ok(),
        Whole::Other(_) => None,
    }
}

/// A cell: `[x, y]` or `"x,y"`.
pub fn cell(v: &CellRef, what: said::Value) -> GameResult<Pos> {
    let bad = || GameError::Invalid(Said::new("error-not-cell").v("what", what.clone()).into());
    match v {
        CellRef::Pair(a) => match a.as_slice() {
            [x, y] => Ok(Pos::new(
                coordinate(x).ok_or_else(bad)?,
                coordinate(y).ok_or_else(bad)?,
            )),
            _ => Err(bad()),
        },
        CellRef::Text(s) => text_cell(s).ok_or_else(bad),
        CellRef::Other(_) => Err(bad()),
    }
}

/// A cell written `x,y`.
pub fn text_cell(s: &str) -> Option<Pos> {
    let (x, y) = s.split_once(',')?;
    Some(Pos::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A path: a list of cells, or cells `x,y` separated by spaces or `;`.
fn path(v: &PathRef) -> GameResult<Vec<Pos>> {
    match v {
        PathRef::Cells(steps) => steps
            .iter()
            .map(|s| cell(s, said::msg("what-each-step")))
            .collect(),
        PathRef::Text(s) => s
            .split(|c: char| c == ';' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| {
                text_cell(s).ok_or_else(|| {
                    GameError::Invalid(
                        Said::new("error-not-cell")
                            .v("what", said::text(format!("`{s}`")))
                            .into(),
                    )
                })
            })
            .collect(),
        PathRef::Other(_) => Err(GameError::Invalid(Said::new("error-path").into())),
    }
}

/// A whole number within an `i32`.
fn whole(v: &Whole, what: &str) -> GameResult<i32> {
    coordinate(v)
        .ok_or_else(|| GameError::Invalid(Said::new("error-not-whole").m("what", what).into()))
}

/// The order an action's fields describe.
pub fn parse(action: &str, body: &OrderFields) -> GameResult<Order> {
    Ok(match action {
        "move" => match (sent(&body.path), sent(&body.to)) {
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
            let target = CompanyId(whole(
                required(&body.target, "target", "what-company-to-attack")?,
                "what-target",
            )?);
            if action == "volley" {
                Order::Volley { target }
            } else {
                Order::Melee { target }
            }
        }
        "bombard" | "build-bridge" | "repair" | "ram" | "build-siege-tower" => {
            let at = at(&body.at)?;
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
                required(&body.men, "men", "what-how-many-men")?,
                "what-number-of-men",
            )?,
        },
        other => {
            let said = Said::new("error-no-action").s("action", other);
            return Err(GameError::NotFound(said.into()));
        }
    })
}

/// The cell a body's `at` names, refused by name when it is not sent.
pub fn at(field: &Option<CellRef>) -> GameResult<Pos> {
    cell(required(field, "at", "what-cell")?, said::msg("what-cell"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn fields(v: Value) -> OrderFields {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn json_and_form_fields_read_the_same() {
        let as_json = parse("move", &fields(json!({"path": [[3, 2], [4, 2]]}))).unwrap();
        let as_form = parse("move", &fields(json!({"path": "3,2 4,2", "to": ""}))).unwrap();
        assert!(matches!((&as_json, &as_form), (Order::MovePath(a), Order::MovePath(b)) if a == b));
        let j = parse("melee", &fields(json!({"target": 12}))).unwrap();
        let f = parse("melee", &fields(json!({"target": " 12 "}))).unwrap();
        assert!(matches!(
            (j, f),
            (
                Order::Melee {
                    target: CompanyId(12)
                },
                Order::Melee {
                    target: CompanyId(12)
                }
            )
        ));
        assert!(matches!(
            parse("bombard", &fields(json!({"at": "5, 6"}))).unwrap(),
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
            let e = parse(action, &fields(body.clone())).unwrap_err();
            assert_eq!(e.code(), "invalid", "{action} {body}: {e}");
        }
        assert_eq!(
            parse("dance", &fields(json!({}))).unwrap_err().code(),
            "not_found"
        );
    }
}
