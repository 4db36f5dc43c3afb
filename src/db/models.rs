//! Row types: what the game reads from and writes to each table.

use super::schema::*;
use crate::ids::*;
use crate::rules::names::{EventKind, Kind, Role, Season, Terrain, TickKind};
use diesel::prelude::*;

#[derive(Clone, Debug, PartialEq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = worlds)]
pub struct World {
    pub id: WorldId,
    pub name: String,
    pub width: i32,
    pub height: i32,
    pub turn: i32,
    pub season: Season,
    pub paused: bool,
    pub rng_seed: i64,
    pub rng_word_pos: i64,
    pub schedule_anchor: i64,
    pub created_at: i64,
    /// Moves on with every change to the world's cells (database triggers).
    pub cells_version: i64,
    /// The campaign's end: after which turn, why, and the winning nation (none: a draw).
    pub ended_turn: Option<i32>,
    pub ended_reason: Option<String>,
    pub winner_id: Option<NationId>,
    /// The world's own victory settings; none: the ruleset's.
    pub victory_points: Option<i64>,
    pub victory_end_turn: Option<i32>,
    pub victory_towns_share: Option<f64>,
    /// The campaign this one follows on the same map.
    pub follows_id: Option<WorldId>,
    /// Square or hex (docs/rules.md §13).
    pub grid: crate::rules::Grid,
}

impl World {
    /// The victory settings in force in this world.
    pub fn victory(
        &self,
        rules: &crate::rules::victory::VictoryRules,
    ) -> crate::rules::victory::VictoryRules {
        crate::rules::victory::VictoryRules {
            points: self.victory_points.unwrap_or(rules.points),
            end_turn: self.victory_end_turn.unwrap_or(rules.end_turn),
            towns_share: self.victory_towns_share.unwrap_or(rules.towns_share),
            ..rules.clone()
        }
    }

    pub fn ended(&self) -> bool {
        self.ended_turn.is_some()
    }
}

#[derive(Insertable)]
#[diesel(table_name = worlds)]
pub struct NewWorld<'a> {
    pub name: &'a str,
    pub width: i32,
    pub height: i32,
    pub turn: i32,
    #[diesel(serialize_as = String)]
    pub season: Season,
    pub paused: bool,
    pub rng_seed: i64,
    pub rng_word_pos: i64,
    pub schedule_anchor: i64,
    pub created_at: i64,
    pub victory_points: Option<i64>,
    pub victory_end_turn: Option<i32>,
    pub victory_towns_share: Option<f64>,
    pub follows_id: Option<WorldId>,
    #[diesel(serialize_as = String)]
    pub grid: crate::rules::Grid,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = nations)]
pub struct Nation {
    pub id: NationId,
    pub world_id: WorldId,
    pub name: String,
    pub color: String,
    pub spawn_x: i32,
    pub spawn_y: i32,
    pub treasury: i64,
    pub points: i64,
}

#[derive(Insertable)]
#[diesel(table_name = nations)]
pub struct NewNation<'a> {
    pub world_id: WorldId,
    pub name: &'a str,
    pub color: &'a str,
    pub spawn_x: i32,
    pub spawn_y: i32,
    pub treasury: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = towns)]
pub struct Town {
    pub id: TownId,
    pub world_id: WorldId,
    pub name: String,
    pub owner_id: Option<NationId>,
}

#[derive(Insertable)]
#[diesel(table_name = towns)]
pub struct NewTown<'a> {
    pub world_id: WorldId,
    pub name: &'a str,
    pub owner_id: Option<NationId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = cells)]
pub struct CellRow {
    pub world_id: WorldId,
    pub x: i32,
    pub y: i32,
    #[diesel(serialize_as = String)]
    pub terrain: Terrain,
    pub town_id: Option<i32>,
    pub owner_id: Option<i32>,
    pub structure: Option<i32>,
    /// The castle the cell belongs to.
    pub castle_id: Option<i32>,
    /// A siege tower on the cell: build actions done, and its structure once finished.
    pub siege_builds: Option<i32>,
    pub siege_structure: Option<i32>,
    /// The castle section the cell is part of.
    pub section_id: Option<i32>,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: UserId,
    pub username: String,
    pub username_key: String,
    pub password_hash: String,
    pub role: Role,
    pub banned: bool,
    pub created_at: i64,
    pub last_login_at: Option<i64>,
    pub previous_login_at: Option<i64>,
    pub unread_alerts: i32,
    pub email: Option<String>,
    pub alert_mail: bool,
    pub last_mail_at: Option<i64>,
    pub unsubscribe_token: Option<String>,
    pub lang: Option<String>,
    /// Private messages not yet read (game::talk), for the header's badge.
    pub unread_messages: i32,
    /// Played by the server (game::bots): no one logs into it.
    pub bot: bool,
    /// While away, the nation's bot holds this player's companies (docs/rules.md §13).
    pub hand_to_bot: bool,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = players)]
pub struct Player {
    pub id: PlayerId,
    pub world_id: WorldId,
    pub user_id: UserId,
    pub nation_id: NationId,
    pub reserve: i32,
    pub regiment_id: Option<RegimentId>,
    pub joined_at: i64,
    /// On leave until this instant: the player's companies neither act nor can be attacked.
    pub leave_until: Option<i64>,
    /// Steps of the first day's checklist that leave no other trace (game::play::first_steps).
    pub first_steps: i32,
    /// Scores in the campaign (game::campaign::scores).
    pub inflicted: i64,
    pub lost: i64,
    pub captures: i32,
    pub xp: i64,
    pub turns_played: i32,
    /// The last turn in which the player gave an order (-1: none yet).
    pub played_turn: i32,
    /// Muted by a game master until this instant: writes no message nor marker.
    pub muted_until: Option<i64>,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = companies)]
pub struct Company {
    pub id: CompanyId,
    pub world_id: WorldId,
    pub player_id: PlayerId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    pub men: i32,
    pub wounded: i32,
    pub ap: i32,
    pub morale: i32,
    pub xp: i32,
    pub volley_recency: i32,
    pub created_at: i64,
    /// Where the company's random stream continues.
    pub rng_pos: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = regiments)]
pub struct Regiment {
    pub id: RegimentId,
    pub world_id: WorldId,
    pub nation_id: NationId,
    pub name: String,
    pub hq_x: Option<i32>,
    pub hq_y: Option<i32>,
    pub created_at: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = events)]
pub struct Event {
    pub id: EventId,
    pub world_id: WorldId,
    pub turn: i32,
    pub at: i64,
    pub kind: EventKind,
    pub actor_user_id: Option<UserId>,
    pub target_user_id: Option<UserId>,
    pub nation_id: Option<NationId>,
    pub other_nation_id: Option<NationId>,
    pub company_id: Option<CompanyId>,
    pub target_company_id: Option<CompanyId>,
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub summary: String,
    pub data: String,
    /// The sentence in message keys and values (`crate::said`); '' for older rows.
    pub said: String,
}

#[derive(Clone, Debug, Insertable)]
#[diesel(table_name = events)]
pub struct NewEvent {
    pub world_id: WorldId,
    pub turn: i32,
    pub at: i64,
    #[diesel(serialize_as = String)]
    pub kind: EventKind,
    pub actor_user_id: Option<UserId>,
    pub target_user_id: Option<UserId>,
    pub nation_id: Option<NationId>,
    pub other_nation_id: Option<NationId>,
    pub company_id: Option<CompanyId>,
    pub target_company_id: Option<CompanyId>,
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub summary: String,
    pub data: String,
    /// The sentence in message keys and values (`crate::said`); '' for older rows.
    pub said: String,
}

impl NewEvent {
    /// An event of `kind` in a world's turn, at `at`, with no one, nowhere and no data: the
    /// rest is filled in by the caller. (No `Default`: an event has no default kind.)
    pub fn new(world_id: WorldId, turn: i32, at: i64, kind: EventKind) -> NewEvent {
        NewEvent {
            world_id,
            turn,
            at,
            kind,
            actor_user_id: None,
            target_user_id: None,
            nation_id: None,
            other_nation_id: None,
            company_id: None,
            target_company_id: None,
            x: None,
            y: None,
            summary: String::new(),
            data: String::new(),
            said: String::new(),
        }
    }

    /// The event's sentence: kept as message keys and values, and in English as its summary.
    pub fn saying(mut self, s: &crate::said::Said) -> NewEvent {
        self.summary = s.render(crate::i18n::Lang::En);
        self.said = s.encode();
        self
    }
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = ticks)]
pub struct Tick {
    pub world_id: WorldId,
    pub kind: TickKind,
    pub scheduled_for: i64,
    pub applied_at: i64,
    pub duration_ms: i64,
    pub rows_touched: i64,
    pub manual: bool,
    /// A turn whose companies are being applied chunk by chunk (`game::ticks`).
    pub pending: bool,
    pub companies_through: i32,
    pub companies_last: i32,
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = gm_audit)]
pub struct AuditRow {
    pub id: AuditId,
    pub world_id: Option<WorldId>,
    pub user_id: UserId,
    pub at: i64,
    pub action: String,
    pub target: String,
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub batch: Option<String>,
}

impl World {
    /// The world's map size, as the rules see it.
    pub fn bounds(&self) -> crate::rules::Bounds {
        crate::rules::Bounds {
            width: self.width,
            height: self.height,
            grid: self.grid,
        }
    }
}

impl CellRow {
    /// The cell as the rules see it.
    pub fn cell(&self) -> crate::rules::state::Cell {
        crate::rules::state::Cell {
            terrain: self.terrain,
            town: self.town_id,
            owner: self.owner_id,
            structure: self.structure,
            castle: self.castle_id,
            siege: self
                .siege_builds
                .map(|builds| crate::rules::state::SiegeTower {
                    builds,
                    structure: self.siege_structure.unwrap_or(0),
                }),
        }
    }
}
