//! The shapes a player's input comes in, from the API's JSON and from a page's form alike: a
//! whole number or its digits, a cell `[x, y]` or `"x,y"`, a path as a list of cells or as
//! text. Any other shape is kept as `Other`, so that `web::order_input` can name the field
//! that was wrong instead of serde's guess at an untagged enum.

use serde::de::IgnoredAny;
use serde::Deserialize;
use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder};
use utoipa::openapi::schema::{Schema, SchemaFormat, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// A whole number, or its digits as text (what a page form sends).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Whole {
    Number(i64),
    Digits(String),
    Other(IgnoredAny),
}

/// A cell: `[x, y]`, or `"x,y"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum CellRef {
    Pair(Vec<Whole>),
    Text(String),
    Other(IgnoredAny),
}

/// A path: a list of cells, or cells `x,y` separated by spaces or `;`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum PathRef {
    Cells(Vec<CellRef>),
    Text(String),
    Other(IgnoredAny),
}

/// Text with nothing but blanks counts as not sent.
pub trait Blank {
    fn is_blank(&self) -> bool;
}

impl Blank for Whole {
    fn is_blank(&self) -> bool {
        matches!(self, Whole::Digits(s) if s.trim().is_empty())
    }
}

impl Blank for CellRef {
    fn is_blank(&self) -> bool {
        matches!(self, CellRef::Text(s) if s.trim().is_empty())
    }
}

impl Blank for PathRef {
    fn is_blank(&self) -> bool {
        matches!(self, PathRef::Text(s) if s.trim().is_empty())
    }
}

/// A field as sent: missing, null and blank are all `None`.
pub fn sent<T: Blank>(field: &Option<T>) -> Option<&T> {
    field.as_ref().filter(|v| !v.is_blank())
}

fn text() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn reference<T: ToSchema>() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(T::name()))
}

// The schemas say what is accepted; `Other` is what is refused.
impl PartialSchema for Whole {
    fn schema() -> RefOr<Schema> {
        let number = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)));
        let digits = text().pattern(Some(r"^\s*-?[0-9]+\s*$"));
        OneOfBuilder::new()
            .item(number)
            .item(digits)
            .description(Some("a whole number, or its digits"))
            .into()
    }
}

impl ToSchema for Whole {}

impl PartialSchema for CellRef {
    fn schema() -> RefOr<Schema> {
        let pair = ArrayBuilder::new()
            .items(reference::<Whole>())
            .min_items(Some(2))
            .max_items(Some(2));
        OneOfBuilder::new()
            .item(pair)
            .item(text().pattern(Some(r"^\s*-?[0-9]+\s*,\s*-?[0-9]+\s*$")))
            .description(Some("a cell: `[x, y]` or `\"x,y\"`"))
            .into()
    }
}

impl ToSchema for CellRef {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Whole::name().into(), Whole::schema()));
    }
}

impl PartialSchema for PathRef {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ArrayBuilder::new().items(reference::<CellRef>()))
            .item(text())
            .description(Some(
                "a path: a list of cells, or cells `x,y` separated by spaces or `;`",
            ))
            .into()
    }
}

impl ToSchema for PathRef {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((CellRef::name().into(), CellRef::schema()));
        CellRef::schemas(schemas);
    }
}
