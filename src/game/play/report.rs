//! The typed record of an order: what the order's answer carries, what its event keeps and
//! what the reports page draws. Each order writes one of these, so the API, the stored event
//! and the page read the same fields.

use crate::rules::actions::{Healed, Reinforced};
use crate::rules::combat::{BattleKind, Side};
use crate::rules::dice::Draw;
use crate::rules::movement::{Capture, Step};
use crate::rules::names::EventKind;
use crate::rules::siege::{BridgeBuilt, SiegeBuild, StructureChange};
use serde::{Deserialize, Serialize};

/// Where in the world's random streams an order drew its dice: with the turn's revealed seed
/// anyone can replay them.
// Serialize: the record `events.data` stores, which the answers pass on as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Rng {
    pub stream: i32,
    pub word_pos: i64,
}

// Serialize: the record `events.data` stores, which the answers pass on as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MoveReport {
    pub steps: Vec<Step>,
    pub cost: i32,
    pub captures: Vec<Capture>,
    pub draws: Vec<Draw>,
    pub rng: Rng,
}

// Serialize: the record `events.data` stores, which the answers pass on as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BattleReport {
    pub battle: BattleKind,
    pub ap_cost: i32,
    pub attacker: Side,
    pub defender: Side,
    pub attacker_name: String,
    pub defender_name: String,
    pub draws: Vec<Draw>,
    pub rng: Rng,
    /// What the castle's rules changed (first strike, close quarters, a siege tower).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<crate::rules::combat::BattleNote>,
    /// The target's cell (the event's cell is the attacker's); none in reports written before
    /// it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<crate::rules::Pos>,
}

/// A bombardment (with the dice's place) or a repair (which draws none).
// Serialize: the record `events.data` stores, which the answers pass on as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StructureReport {
    #[serde(flatten)]
    pub change: StructureChange,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rng: Option<Rng>,
}

/// What an order did, as its answer's `report` and its event's data.
// Serialize: the record `events.data` stores, which the answers pass on as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Report {
    Move(MoveReport),
    Battle(BattleReport),
    Structure(StructureReport),
    Bridge(BridgeBuilt),
    Heal(Healed),
    Reinforce(Reinforced),
    SiegeTower(SiegeBuild),
}

impl Report {
    /// The report an event of `kind` recorded, if it is an order's and was written in this
    /// form (events of older versions or of other kinds have none).
    pub fn of_event(kind: EventKind, data: &str) -> Option<Report> {
        // Every kind named: a new order's kind must say here whether it has a report.
        let r = match kind {
            EventKind::Move => Report::Move(serde_json::from_str(data).ok()?),
            EventKind::Volley | EventKind::Melee => {
                Report::Battle(serde_json::from_str(data).ok()?)
            }
            EventKind::Bombard | EventKind::Repair | EventKind::Ram => {
                Report::Structure(serde_json::from_str(data).ok()?)
            }
            EventKind::SiegeTower => Report::SiegeTower(serde_json::from_str(data).ok()?),
            EventKind::Bridge => Report::Bridge(serde_json::from_str(data).ok()?),
            EventKind::Heal => Report::Heal(serde_json::from_str(data).ok()?),
            EventKind::Reinforce => Report::Reinforce(serde_json::from_str(data).ok()?),
            EventKind::Raise
            | EventKind::Leave
            | EventKind::CampaignEnd
            | EventKind::Turn
            | EventKind::Season => return None,
        };
        Some(r)
    }

    /// The report as the event keeps it.
    pub fn to_json(&self) -> String {
        // Every field is a number, a string, a list or a map with string keys: it always
        // serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}
