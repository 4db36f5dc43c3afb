//! The rankings of a campaign's players (docs/rules.md §11), read from the copies of their
//! scores that each turn writes (`ticks::statements`), never from the scores the orders keep
//! (`game::play::scores`): an order in the fog shows in no one's rankings before the turn. A
//! player's nation (and so its points) is told only to its own nation, as the nations list
//! tells members (`play::views::nations`). One statement a page, which also finds the
//! caller's own row and, when no page is asked for, the page that holds it.

use crate::db::DbConnection;
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds as world_rows;
use crate::ids::{UserId, WorldId};
use diesel::sql_types::{BigInt, Integer, Nullable, Text};
use diesel::{QueryableByName, RunQueryDsl};

/// Players on one page of the rankings.
pub const PAGE_SIZE: i64 = 20;

/// Past this page a request is refused rather than counted (more than any world's players).
pub const MAX_PAGE: i64 = 1_000_000;

pub use crate::rules::names::RankBy;

impl RankBy {
    /// Refuses anything else, naming the choices.
    pub fn parse(s: &str) -> GameResult<RankBy> {
        RankBy::ALL
            .into_iter()
            .find(|b| b.as_str() == s)
            .ok_or_else(|| {
                GameError::Invalid(
                    format!(
                        "unknown ranking `{}`: use inflicted, lost, captures, xp, turns or points",
                        s.chars().take(40).collect::<String>()
                    )
                    .into(),
                )
            })
    }

    fn column(self) -> &'static str {
        match self {
            RankBy::Inflicted => "p.ranked_inflicted",
            RankBy::Lost => "p.ranked_lost",
            RankBy::Captures => "p.ranked_captures",
            RankBy::Xp => "p.ranked_xp",
            RankBy::Turns => "p.ranked_turns",
            RankBy::Points => "p.ranked_points",
        }
    }
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, QueryableByName)]
pub struct RankRow {
    /// Players level on the score share a rank. None in a ranking by points for a player
    /// whose nation the caller is not told: the order would tell who stands with whom.
    #[diesel(sql_type = Nullable<BigInt>)]
    pub rank: Option<i64>,
    #[diesel(sql_type = Text)]
    pub player: String,
    /// Played by the server (docs/rules.md §14).
    #[diesel(sql_type = diesel::sql_types::Bool)]
    pub bot: bool,
    /// None unless the player is of the caller's nation.
    #[diesel(sql_type = Nullable<Text>)]
    pub nation: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    pub color: Option<String>,
    #[diesel(sql_type = BigInt)]
    pub inflicted: i64,
    #[diesel(sql_type = BigInt)]
    pub lost: i64,
    #[diesel(sql_type = Integer)]
    pub captures: i32,
    #[diesel(sql_type = BigInt)]
    pub xp: i64,
    #[diesel(sql_type = Integer)]
    pub turns: i32,
    /// The nation's points, told as the nation is.
    #[diesel(sql_type = Nullable<BigInt>)]
    pub points: Option<i64>,
    #[diesel(sql_type = Integer)]
    pub user_id: UserId,
    /// The row's place in the order (1, 2, 3… even where ranks are shared).
    #[diesel(sql_type = BigInt)]
    pub place: i64,
    #[diesel(sql_type = BigInt)]
    pub total: i64,
}

/// One page of the rankings.
#[derive(Clone, Debug)]
pub struct Page {
    pub by: RankBy,
    pub page: i64,
    pub pages: i64,
    pub players: i64,
    pub rows: Vec<RankRow>,
    /// The caller's own line, wherever it stands (none for a visitor, a non-player, or a
    /// player who joined after the last turn).
    pub me: Option<RankRow>,
}

/// One page of the rankings as the last turn left them, as `me` (a user id) may see them;
/// `page` None: the caller's page (the first for a visitor).
pub fn rankings(
    conn: &mut DbConnection,
    world_id: WorldId,
    by: RankBy,
    page: Option<i64>,
    me: Option<UserId>,
) -> GameResult<Page> {
    if let Some(p) = page {
        if !(1..=MAX_PAGE).contains(&p) {
            return Err(GameError::Invalid(
                format!("page must be between 1 and {MAX_PAGE}").into(),
            ));
        }
    }
    // The caller's nation, if the caller plays here: only its players show their nation.
    let told = "p.nation_id = (SELECT v.nation_id FROM players v WHERE v.world_id = $1 AND v.user_id = $2)";
    let (rank, order) = match by {
        // Points are a nation's: a player whose nation is not told has none and no rank, and
        // comes after the others in the order they joined, or the order would group nations.
        // The caller's own nation ranks against everyone, as the public standings tell.
        RankBy::Points => (
            format!("CASE WHEN {told} THEN RANK() OVER (ORDER BY p.ranked_points DESC) END"),
            format!("CASE WHEN {told} THEN 0 ELSE 1 END"),
        ),
        _ => (
            format!("RANK() OVER (ORDER BY {} DESC)", by.column()),
            format!("{} DESC", by.column()),
        ),
    };
    // Ranked once over the world's ranked players (by its index); kept: the page asked for (or
    // the caller's own), the caller's row, and the first, which carries the count of players
    // even past the last page.
    let sql = format!(
        "WITH r AS ( \
           SELECT {rank} AS rank, \
             ROW_NUMBER() OVER (ORDER BY {order}, p.id) AS place, \
             COUNT(*) OVER () AS total, \
             u.username AS player, u.bot AS bot, \
             CASE WHEN {told} THEN n.name END AS nation, \
             CASE WHEN {told} THEN n.color END AS color, \
             p.ranked_inflicted AS inflicted, p.ranked_lost AS lost, \
             p.ranked_captures AS captures, p.ranked_xp AS xp, p.ranked_turns AS turns, \
             CASE WHEN {told} THEN p.ranked_points END AS points, p.user_id AS user_id \
           FROM players p JOIN users u ON u.id = p.user_id JOIN nations n ON n.id = p.nation_id \
           WHERE p.world_id = $1 AND p.ranked_turn IS NOT NULL) \
         SELECT * FROM r WHERE r.user_id = $2 OR r.place = 1 OR (r.place - 1) / $3 = COALESCE($4, \
           (SELECT (m.place - 1) / $3 FROM r m WHERE m.user_id = $2), 0) \
         ORDER BY r.place"
    );
    let rows: Vec<RankRow> = diesel::sql_query(conn.numbered(&sql))
        .bind::<Integer, _>(world_id)
        .bind::<Integer, _>(me.unwrap_or(UserId(-1)))
        .bind::<BigInt, _>(PAGE_SIZE)
        .bind::<Nullable<BigInt>, _>(page.map(|p| p - 1))
        .load(conn)?;
    if rows.is_empty() {
        // No players: is there such a world at all? (Asked only then: a page is one query.)
        world_rows::get(conn, world_id)?;
    }
    let mine = rows.iter().find(|r| Some(r.user_id) == me).cloned();
    let players = rows.first().map_or(0, |r| r.total);
    let page = page.unwrap_or_else(|| mine.as_ref().map_or(1, |m| (m.place - 1) / PAGE_SIZE + 1));
    let rows = rows
        .into_iter()
        .filter(|r| (r.place - 1) / PAGE_SIZE + 1 == page)
        .collect();
    Ok(Page {
        by,
        page,
        pages: ((players + PAGE_SIZE - 1) / PAGE_SIZE).max(1),
        players,
        rows,
        me: mine,
    })
}
