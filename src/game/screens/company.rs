//! The company screen: one of the player's companies, the ground it stands on, the enemies it
//! sees, what it may do, and a report asked for.

use crate::db::models::{Company, Event, Nation, Player, World};
use crate::db::DbConnection;
use crate::game::play::access::{self, Actor};
use crate::game::play::load::Placed;
use crate::game::play::options::{self, Options};
use crate::game::play::views::{self, NamedCell, Seen};
use crate::game::play::{self, reports};
use crate::game::{maps::worlds, GameResult};
use crate::ids::{CompanyId, EventId};
use crate::rules::{Pos, Ruleset};

pub struct CompanyScreen {
    pub company: Company,
    /// Whether the company is hidden where it stands.
    pub hidden: bool,
    pub world: World,
    pub player: Player,
    /// The cell the company stands on.
    pub cell: Option<NamedCell>,
    /// Other nations' companies in sight.
    pub enemies: Vec<(Placed, Seen)>,
    /// The world's nations.
    pub nations: Vec<Nation>,
    pub options: Options,
    pub report: Option<Event>,
}

pub fn screen(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    company_id: CompanyId,
    report: Option<EventId>,
) -> GameResult<CompanyScreen> {
    let (c, player) = access::own_company(conn, actor, company_id)?;
    let world = worlds::get(conn, c.world_id)?;
    let hidden = play::hidden(conn, rs, &c)?;
    let here = Pos::new(c.x, c.y);
    let cell = views::cell_info(conn, &world, here)?;
    // As far around as any company of the ruleset can see.
    let r = crate::rules::vision::max_perception(rs);
    let rect = views::clip(&world, c.x - r, c.y - r, c.x + r, c.y + r);
    let who = views::Onlooker::player(actor.user_id, &player);
    let nations = worlds::nations_of(conn, world.id)?;
    let seen = views::player_map(
        conn,
        rs,
        Some(who),
        &world,
        nations,
        rect,
        views::Look::Around,
    )?;
    let enemies = seen
        .companies
        .into_iter()
        .filter(|(p, _)| p.nation_id != player.nation_id)
        .collect();
    let report = match report {
        Some(e) => reports::visible_event(conn, actor, world.id, e)?,
        None => None,
    };
    let options = options::of(conn, rs, actor, c.id, None)?;
    Ok(CompanyScreen {
        company: c,
        hidden,
        world,
        player,
        cell,
        enemies,
        nations: seen.nations,
        options,
        report,
    })
}
