//! What a player does: joining a world, raising companies and regiments; the orders and what a
//! company may do; what the player sees (the map, reports); leave.

pub mod access;
pub mod board;
pub mod first_steps;
pub mod leave;
pub mod load;
pub mod options;
pub mod orders;
pub mod regiments;
pub mod report;
pub mod reports;
pub mod scores;
pub mod unit_write;
pub mod views;

use crate::db::models::{Company, NewEvent, Player, World};
use crate::db::schema::{cells, companies, nations, players};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds;
use crate::game::news::events;
use crate::game::play::access::Actor;
use crate::game::play::load::Placed;
use crate::ids::{CompanyId, NationId, PlayerId, UserId, WorldId};
use crate::rules::names::EventKind;
use crate::rules::vision::is_hidden;
use crate::rules::{actions, Kind, Pos, Refusal, Ruleset, Terrain};
use crate::said::Said;
use diesel::prelude::*;

pub use regiments::{create_regiment, join_regiment, regiments_of, set_headquarters};

/// Whether a company is hidden where it stands.
pub fn hidden(conn: &mut DbConnection, rs: &Ruleset, c: &Company) -> GameResult<bool> {
    let query = cells::table
        .find((c.world_id, c.x, c.y))
        .select(cells::terrain);
    let terrain: Terrain = crate::on_backend!(conn, c => query.first(c))?;
    let placed = Placed {
        company: c.clone(),
        nation_id: NationId(0),
        user_id: UserId(0),
        leave_until: None,
    };
    Ok(is_hidden(rs, &load::unit_of(&placed), terrain))
}

/// Joins a world with a nation (by name or id), once per world.
pub fn join(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    nation: &str,
) -> GameResult<Player> {
    db::write(conn, |conn| {
        if worlds::get(conn, world_id)?.ended() {
            return Err(GameError::CampaignOver);
        }
        if access::player_in(conn, actor, world_id)?.is_some() {
            return Err(GameError::Conflict(Said::new("error-joined").into()));
        }
        let nation_id = worlds::nations_of(conn, world_id)?
            .into_iter()
            .find(|n| {
                n.name.eq_ignore_ascii_case(nation.trim()) || n.id.to_string() == nation.trim()
            })
            .map(|n| n.id)
            .ok_or_else(|| {
                GameError::Invalid(Said::new("error-no-nation").s("nation", nation).into())
            })?;
        diesel::insert_into(players::table)
            .values((
                players::world_id.eq(world_id),
                players::user_id.eq(actor.user_id),
                players::nation_id.eq(nation_id),
                players::reserve.eq(0),
                players::joined_at.eq(db::now()),
            ))
            .execute(conn)
            .map_err(|e| match e {
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => GameError::Conflict(Said::new("error-joined").into()),
                other => other.into(),
            })?;
        access::require_player(conn, actor, world_id)
    })
}

/// Checks a company name: 1–N characters once trimmed, kept as written.
pub fn check_name(rs: &Ruleset, name: &str) -> GameResult<String> {
    let t = name.trim();
    let max = rs.limits.company_name_max as usize;
    if t.is_empty() || t.chars().count() > max {
        return Err(GameError::Invalid(
            Said::new("error-name-length")
                .m("what", "what-company-name")
                .n("max", max as i64)
                .into(),
        ));
    }
    if t.chars().any(char::is_control) {
        return Err(GameError::Invalid(
            Said::new("error-control")
                .m("what", "what-company-name")
                .into(),
        ));
    }
    Ok(t.to_string())
}

/// Whether the player may raise a company now, with `companies` of theirs and their nation's
/// `treasury`: the world takes orders (its campaign not over, not paused), the player is not on
/// leave, and the rules allow it (`rules::actions::may_raise`: the company limit, the raise
/// cost). The one answer the world page, the API's world and the raise order itself give, so
/// that a refusal reads the same asked beforehand or attempted.
pub fn may_raise(
    rs: &Ruleset,
    w: &World,
    player: &Player,
    companies: i64,
    treasury: i64,
) -> GameResult<()> {
    worlds::takes_orders(w)?;
    crate::rules::leave::free(player.leave_until, db::now())?;
    actions::may_raise(rs, companies, treasury)?;
    Ok(())
}

/// [`may_raise`] for a player whose companies and treasury the caller has not read: the outer
/// error is the database's, the inner one the refusal.
pub fn may_raise_now(
    conn: &mut DbConnection,
    rs: &Ruleset,
    w: &World,
    player: &Player,
) -> GameResult<Result<(), GameError>> {
    let companies: i64 = companies::table
        .filter(companies::player_id.eq(player.id))
        .count()
        .get_result(conn)?;
    let treasury: i64 = nations::table
        .find(player.nation_id)
        .select(nations::treasury)
        .first(conn)?;
    Ok(may_raise(rs, w, player, companies, treasury))
}

/// Raises a company at the nation's spawn (or the nearest free cell), paid from the treasury.
pub fn raise(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    kind: &str,
    name: &str,
) -> GameResult<Company> {
    let kind: Kind = kind
        .trim()
        .parse()
        .map_err(|e: crate::rules::names::UnknownName| GameError::Invalid(e.to_string().into()))?;
    let name = check_name(rs, name)?;
    db::write(conn, |conn| {
        let w = worlds::get(conn, world_id)?;
        let player = access::require_player(conn, actor, world_id)?;
        // Lock the player's row first: two raises of one player queue here, so the limit holds.
        diesel::update(players::table.find(player.id))
            .set(players::reserve.eq(players::reserve))
            .execute(conn)?;
        let count: i64 = companies::table
            .filter(companies::player_id.eq(player.id))
            .count()
            .get_result(conn)?;
        let (treasury, sx, sy): (i64, i32, i32) = nations::table
            .find(player.nation_id)
            .select((nations::treasury, nations::spawn_x, nations::spawn_y))
            .first(conn)?;
        // The same question the pages and the API ask beforehand, on the locked figures.
        may_raise(rs, &w, &player, count, treasury)?;
        // Names tell a player's companies apart in orders and reports.
        let same_name: i64 = companies::table
            .filter(companies::player_id.eq(player.id))
            .filter(companies::name.eq(&name))
            .count()
            .get_result(conn)?;
        if same_name > 0 {
            return Err(GameError::Conflict(
                Said::new("error-company-name-taken")
                    .s("name", name.as_str())
                    .into(),
            ));
        }
        let spawn = Pos::new(sx, sy);
        let mut placed = None;
        // Windows that grow to the ruleset's radius: a free cell near the spawn is found
        // without reading the whole circle.
        let far = rs.limits.raise_search_radius;
        for radius in [far / 10, far * 3 / 10, far] {
            let (area, _) = load::window(conn, &w, &[spawn], radius)?;
            match actions::raise(
                rs,
                &area,
                player.nation_id.0,
                kind,
                count as i32,
                treasury,
                spawn,
            ) {
                Err(Refusal::Occupied(_)) if radius < far => continue,
                other => {
                    placed = Some(other?);
                    break;
                }
            }
        }
        let r = placed.ok_or(Refusal::Occupied(spawn))?;
        let paid = diesel::update(
            nations::table
                .find(player.nation_id)
                .filter(nations::treasury.ge(r.cost)),
        )
        .set(nations::treasury.eq(nations::treasury - r.cost))
        .execute(conn)?;
        if paid == 0 {
            return Err(Refusal::Treasury {
                need: r.cost,
                have: treasury,
            }
            .into());
        }
        let id: CompanyId = diesel::insert_into(companies::table)
            .values((
                companies::world_id.eq(world_id),
                companies::player_id.eq(player.id),
                companies::name.eq(&name),
                companies::kind.eq(kind.as_str()),
                companies::x.eq(r.pos.x),
                companies::y.eq(r.pos.y),
                companies::men.eq(r.men),
                companies::wounded.eq(0),
                companies::ap.eq(r.ap),
                companies::morale.eq(r.morale),
                companies::xp.eq(0),
                companies::volley_recency.eq(0),
                companies::created_at.eq(db::now()),
            ))
            .returning(companies::id)
            .get_result(conn)
            .map_err(occupied_on_conflict(r.pos))?;
        first_steps::tick(conn, &player, first_steps::RAISED)?;
        events::record(
            conn,
            NewEvent {
                actor_user_id: Some(actor.user_id),
                target_user_id: Some(actor.user_id),
                nation_id: Some(player.nation_id),
                company_id: Some(id),
                x: Some(r.pos.x),
                y: Some(r.pos.y),
                data: serde_json::json!({"cost": r.cost, "men": r.men}).to_string(),
                ..NewEvent::new(world_id, w.turn, db::now(), EventKind::Raise)
            }
            .saying(
                &Said::new("said-raise")
                    .s("player", actor.username.as_str())
                    .s("name", name.as_str())
                    .m("kind", format!("kind-{}", kind.as_str()))
                    .n("x", r.pos.x)
                    .n("y", r.pos.y)
                    .n("cost", r.cost),
            ),
        )?;
        Ok(companies::table
            .find(id)
            .select(Company::as_select())
            .first(conn)?)
    })
}

/// A unique-index violation on a company's cell means another company got there first.
pub fn occupied_on_conflict(at: Pos) -> impl Fn(diesel::result::Error) -> GameError {
    move |e| match e {
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ) => Refusal::Occupied(at).into(),
        other => other.into(),
    }
}

/// The actor's companies in a world.
pub fn my_companies(conn: &mut DbConnection, player_id: PlayerId) -> GameResult<Vec<Company>> {
    Ok(crate::on_backend!(conn, c => companies::table
        .filter(companies::player_id.eq(player_id))
        .order(companies::id)
        .select(Company::as_select())
        .load(c))?)
}
