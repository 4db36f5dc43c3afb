//! Map markers: a short label a player drops on a cell for their nation ("rally", "enemy
//! guns"). Only that nation sees them; each lasts `talk.marker_turns` turns; its author or a
//! game master removes it. A marker says what its author typed and where: nothing of what the
//! fog hides.

use super::text::Label;
use super::{now_or_muted, serialize_writes_of};
use crate::config::TalkSettings;
use crate::db::models::Player;
use crate::db::schema::{markers, players, users, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::maps::worlds as world_rows;
use crate::game::play::access::{self, Actor};
use crate::ids::{MarkerId, NationId, UserId, WorldId};
use crate::rules::Pos;
use crate::said::Said;
use diesel::prelude::*;

/// A marker on the map: where, what it says, by whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub id: MarkerId,
    pub at: Pos,
    pub label: String,
    /// Its author's name.
    pub by: String,
    /// The marker is gone when the world reaches this turn.
    pub expires_turn: i32,
    /// Its author.
    pub user_id: UserId,
}

impl Marker {
    /// Whether the actor may remove this marker of their nation: its author or a game master.
    pub fn removable_by(&self, actor: &Actor) -> bool {
        actor.role.is_gm() || self.user_id == actor.user_id
    }
}

/// Drops a marker on a cell of the world for the actor's nation.
pub fn drop_at(
    conn: &mut DbConnection,
    t: &TalkSettings,
    actor: &Actor,
    world_id: WorldId,
    at: Pos,
    label: &Label,
) -> GameResult<Marker> {
    db::write(conn, |conn| {
        let w = world_rows::get(conn, world_id)?;
        let me = access::require_player(conn, actor, world_id)?;
        let now = db::now();
        now_or_muted(&me, now)?;
        if !(0..w.width).contains(&at.x) || !(0..w.height).contains(&at.y) {
            return Err(GameError::Invalid(
                Said::new("error-off-the-map")
                    .n("x", at.x)
                    .n("y", at.y)
                    .into(),
            ));
        }
        serialize_writes_of(conn, actor.user_id)?;
        let standing: i64 = markers::table
            .filter(markers::user_id.eq(actor.user_id))
            .filter(markers::world_id.eq(world_id))
            .filter(markers::expires_turn.gt(w.turn))
            .count()
            .get_result(conn)?;
        if standing >= t.markers_per_player {
            return Err(GameError::Conflict(
                Said::new("error-too-many-markers")
                    .n("max", t.markers_per_player)
                    .into(),
            ));
        }
        let expires_turn = w.turn.saturating_add(t.marker_turns);
        let id: MarkerId = diesel::insert_into(markers::table)
            .values((
                markers::world_id.eq(world_id),
                markers::nation_id.eq(me.nation_id),
                markers::user_id.eq(actor.user_id),
                markers::x.eq(at.x),
                markers::y.eq(at.y),
                markers::label.eq(label.as_str()),
                markers::at.eq(now),
                markers::expires_turn.eq(expires_turn),
            ))
            .returning(markers::id)
            .get_result(conn)?;
        Ok(Marker {
            id,
            at,
            label: label.as_str().to_string(),
            by: actor.username.clone(),
            expires_turn,
            user_id: actor.user_id,
        })
    })
}

/// The standing markers of the player's nation at the world's turn `turn`, within
/// `(x0, y0)..=(x1, y1)` when given. One statement of a fixed shape, which the connection keeps
/// prepared: the world page asks it on every view.
pub fn of_nation(
    conn: &mut DbConnection,
    player: &Player,
    turn: i32,
    within: Option<(Pos, Pos)>,
) -> GameResult<Vec<Marker>> {
    let (a, b) = within.unwrap_or((Pos::new(i32::MIN, i32::MIN), Pos::new(i32::MAX, i32::MAX)));
    let rows: Vec<(MarkerId, i32, i32, String, String, i32, UserId)> = crate::on_backend!(conn, c => markers::table
        .inner_join(users::table)
        .filter(markers::world_id.eq(player.world_id))
        .filter(markers::nation_id.eq(player.nation_id))
        .filter(markers::expires_turn.gt(turn))
        .filter(markers::x.between(a.x, b.x))
        .filter(markers::y.between(a.y, b.y))
        .select((
            markers::id,
            markers::x,
            markers::y,
            markers::label,
            users::username,
            markers::expires_turn,
            markers::user_id,
        ))
        .order(markers::id)
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|(id, x, y, label, by, expires_turn, user_id)| Marker {
            id,
            at: Pos::new(x, y),
            label,
            by,
            expires_turn,
            user_id,
        })
        .collect())
}

/// The markers of the actor's nation in a world (the API's list).
pub fn list(conn: &mut DbConnection, actor: &Actor, world_id: WorldId) -> GameResult<Vec<Marker>> {
    let w = world_rows::get(conn, world_id)?;
    let me = access::require_player(conn, actor, world_id)?;
    of_nation(conn, &me, w.turn, None)
}

/// Removes a marker: its author, or a game master (in the audit log). Another nation's
/// marker, or one gone, is not found; a marker of one's own nation by someone else is
/// forbidden. Returns the marker's world.
pub fn remove(conn: &mut DbConnection, actor: &Actor, marker_id: MarkerId) -> GameResult<WorldId> {
    db::write(conn, |conn| {
        let row: Option<(WorldId, NationId, UserId, i32, i32, String, i32)> = markers::table
            .inner_join(worlds::table)
            .filter(markers::id.eq(marker_id))
            .filter(markers::expires_turn.gt(worlds::turn))
            .select((
                markers::world_id,
                markers::nation_id,
                markers::user_id,
                markers::x,
                markers::y,
                markers::label,
                markers::expires_turn,
            ))
            .first(conn)
            .optional()?;
        let Some((world_id, nation_id, author, x, y, label, _)) = row else {
            return Err(GameError::not_found("marker"));
        };
        let my_nation: Option<NationId> = players::table
            .filter(players::world_id.eq(world_id))
            .filter(players::user_id.eq(actor.user_id))
            .select(players::nation_id)
            .first(conn)
            .optional()?;
        let gm = actor.role.is_gm();
        if !gm && my_nation != Some(nation_id) {
            return Err(GameError::not_found("marker"));
        }
        if !gm && author != actor.user_id {
            return Err(GameError::Forbidden(
                Said::new("error-marker-not-yours").into(),
            ));
        }
        diesel::delete(markers::table.find(marker_id)).execute(conn)?;
        if author != actor.user_id {
            audit::record(
                conn,
                audit::Entry {
                    world_id: Some(world_id),
                    user_id: actor.user_id,
                    action: "remove_marker".into(),
                    target: format!("marker {marker_id}"),
                    at: Some(Pos::new(x, y)),
                    before: Some(serde_json::json!({ "label": label, "user_id": author })),
                    ..audit::Entry::default()
                },
            )?;
        }
        Ok(world_id)
    })
}
