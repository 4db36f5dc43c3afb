//! Who may act on what. Every handler loads the objects it acts on through these helpers, so
//! that another player's company is simply "not found" and GM tools refuse players.

use crate::db::models::{Company, Player, User, World};
use crate::db::schema::{companies, players, worlds};
use crate::db::DbConnection;
use crate::game::accounts::{role_of, Role};
use crate::game::error::{GameError, GameResult};
use crate::ids::{CompanyId, NationId, UserId, WorldId};
use crate::said::Said;
use diesel::prelude::*;

/// The account acting, as far as permissions go.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user_id: UserId,
    pub username: String,
    pub role: Role,
    /// The orders are the nation's bot's, holding the companies of this player while away
    /// (docs/rules.md §14): they do not count as the player's turns played.
    pub held: bool,
}

impl Actor {
    pub fn of(u: &User) -> Actor {
        Actor {
            user_id: u.id,
            username: u.username.clone(),
            role: role_of(u),
            held: false,
        }
    }

    /// Game masters and admins only.
    pub fn require_gm(&self) -> GameResult<()> {
        if self.role.is_gm() {
            Ok(())
        } else {
            Err(GameError::Forbidden("only game masters may do this".into()))
        }
    }

    pub fn require_admin(&self) -> GameResult<()> {
        if self.role.is_admin() {
            Ok(())
        } else {
            Err(GameError::Forbidden("only admins may do this".into()))
        }
    }
}

/// A company the actor commands, with its player row; anyone else's is not found.
pub fn own_company(
    conn: &mut DbConnection,
    actor: &Actor,
    company_id: CompanyId,
) -> GameResult<(Company, Player)> {
    crate::on_backend!(conn, c => companies::table
        .inner_join(players::table)
        .filter(companies::id.eq(company_id))
        .filter(players::user_id.eq(actor.user_id))
        .select((Company::as_select(), Player::as_select()))
        .first(c)
        .optional())?
    .ok_or_else(|| GameError::not_found("company of yours"))
}

/// A company the actor commands, with its player and world rows in one query: what every
/// order starts from. Anyone else's company is not found.
pub fn own_company_and_world(
    conn: &mut DbConnection,
    actor: &Actor,
    company_id: CompanyId,
) -> GameResult<(Company, Player, World)> {
    crate::on_backend!(conn, c => companies::table
        .inner_join(players::table.inner_join(worlds::table))
        .filter(companies::id.eq(company_id))
        .filter(players::user_id.eq(actor.user_id))
        .select((
            Company::as_select(),
            Player::as_select(),
            World::as_select(),
        ))
        .first(c)
        .optional())?
    .ok_or_else(|| GameError::not_found("company of yours"))
}

/// The actor's player in a world, if they joined it.
pub fn player_in(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Option<Player>> {
    Ok(crate::on_backend!(conn, c => players::table
        .filter(players::world_id.eq(world_id))
        .filter(players::user_id.eq(actor.user_id))
        .select(Player::as_select())
        .first(c)
        .optional())?)
}

/// The nation whose view of the world `actor` has: theirs if they joined it, none for a
/// visitor or someone who has not (game masters included: they see as players do).
pub fn viewer_nation(
    conn: &mut DbConnection,
    actor: Option<&Actor>,
    world_id: WorldId,
) -> GameResult<Option<NationId>> {
    match actor {
        Some(a) => Ok(player_in(conn, a, world_id)?.map(|p| p.nation_id)),
        None => Ok(None),
    }
}

/// Like `player_in`, but refusing when the actor has not joined.
pub fn require_player(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Player> {
    player_in(conn, actor, world_id)?
        .ok_or_else(|| GameError::Forbidden(Said::new("error-join-first").into()))
}
