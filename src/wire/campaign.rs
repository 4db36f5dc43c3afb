//! The campaign: its end, the standings, the history, the rankings and the next campaign.

use crate::game::campaign::{self, scores, Scoreboard};
use crate::game::maps::castles::{Castle, Section};
use crate::ids::{NationId, WorldId};
use crate::rules::castle::SectionKind;
use crate::rules::names::RankBy;
use crate::rules::victory::{EndReason, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RankingsQuery {
    pub by: Option<String>,
    pub page: Option<i64>,
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NextBody {
    pub name: Option<String>,
}

/// `POST /api/v1/worlds/{w}/next`: the new campaign's world.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NextAnswer {
    #[schema(value_type = i32)]
    pub id: WorldId,
}

/// `POST /api/v1/worlds/{w}/end`: how the campaign ended and who won.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct EndAnswer {
    pub reason: EndReason,
    pub winner: Option<i32>,
}

impl From<Verdict> for EndAnswer {
    fn from(v: Verdict) -> EndAnswer {
        EndAnswer {
            reason: v.reason,
            winner: v.winner,
        }
    }
}

/// One nation's line of the standings.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CampaignNation)]
pub struct NationStanding {
    pub nation: String,
    #[schema(value_type = i32)]
    pub nation_id: NationId,
    pub color: String,
    pub points: i64,
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
}

/// `GET /api/v1/worlds/{w}/standings` and the standings page.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Standings {
    /// `running` or `ended`.
    pub status: &'static str,
    pub winner: Option<String>,
    /// Why it ended: `points`, `towns`, `last_turn` or `game_master`.
    pub reason: Option<String>,
    pub turn: i32,
    /// What it takes to win here.
    pub points_to_win: i64,
    pub end_turn: i32,
    pub towns_share: f64,
    pub nations: Vec<NationStanding>,
}

impl Standings {
    pub fn of(b: &Scoreboard) -> Standings {
        let w = &b.world;
        Standings {
            status: if w.ended() { "ended" } else { "running" },
            winner: w
                .winner_id
                .and_then(|id| b.nations.iter().find(|(n, _)| n.id == id))
                .map(|(n, _)| n.name.clone()),
            reason: w.ended_reason.clone(),
            turn: w.turn,
            points_to_win: b.victory.points,
            end_turn: b.victory.end_turn,
            towns_share: b.victory.towns_share,
            nations: b
                .nations
                .iter()
                .map(|(n, held)| NationStanding {
                    nation: n.name.clone(),
                    nation_id: n.id,
                    color: n.color.clone(),
                    points: n.points,
                    towns: held.towns,
                    mines: held.mines,
                    sections: held.sections,
                })
                .collect(),
        }
    }
}

/// One nation in one turn of the history.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct NationTurn {
    pub nation: String,
    pub points: i64,
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
    /// Another nation's companies and men are withheld (none) while the campaign runs: they
    /// are its strength, which the fog hides; the end publishes them.
    pub companies: Option<i64>,
    pub men: Option<i64>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct HistoryTurn {
    pub turn: i32,
    pub nations: Vec<NationTurn>,
}

/// `GET /api/v1/worlds/{w}/history`: the campaign turn by turn, oldest first.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct History {
    pub turns: Vec<HistoryTurn>,
}

impl History {
    /// The rows of `campaign::history`, grouped by turn.
    pub fn of(rows: Vec<campaign::NationTurn>) -> History {
        let mut turns: Vec<HistoryTurn> = Vec::new();
        for r in rows {
            let line = NationTurn {
                nation: r.nation,
                points: r.points,
                towns: r.towns,
                mines: r.mines,
                sections: r.sections,
                companies: r.companies,
                men: r.men,
            };
            match turns.last_mut() {
                Some(t) if t.turn == r.turn => t.nations.push(line),
                _ => turns.push(HistoryTurn {
                    turn: r.turn,
                    nations: vec![line],
                }),
            }
        }
        History { turns }
    }
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RankRow {
    /// Players level on the score share a rank. None in a ranking by points for a player
    /// whose nation the caller is not told: the order would tell who stands with whom.
    pub rank: Option<i64>,
    pub player: String,
    /// Played by the server (docs/rules.md §14).
    pub bot: bool,
    /// None unless the player is of the caller's nation.
    pub nation: Option<String>,
    pub color: Option<String>,
    pub inflicted: i64,
    pub lost: i64,
    pub captures: i32,
    pub xp: i64,
    pub turns: i32,
    /// The nation's points, told as the nation is.
    pub points: Option<i64>,
}

impl From<&scores::RankRow> for RankRow {
    fn from(r: &scores::RankRow) -> RankRow {
        RankRow {
            rank: r.rank,
            player: r.player.clone(),
            bot: r.bot,
            nation: r.nation.clone(),
            color: r.color.clone(),
            inflicted: r.inflicted,
            lost: r.lost,
            captures: r.captures,
            xp: r.xp,
            turns: r.turns,
            points: r.points,
        }
    }
}

/// `GET /api/v1/worlds/{w}/rankings` and the standings page's table.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Rankings {
    pub by: RankBy,
    pub page: i64,
    pub pages: i64,
    pub players: i64,
    pub rows: Vec<RankRow>,
    /// The caller's own line, wherever it stands (none for a visitor, a non-player, or a
    /// player who joined after the last turn).
    pub me: Option<RankRow>,
}

impl From<&scores::Page> for Rankings {
    fn from(p: &scores::Page) -> Rankings {
        Rankings {
            by: p.by,
            page: p.page,
            pages: p.pages,
            players: p.players,
            rows: p.rows.iter().map(RankRow::from).collect(),
            me: p.me.as_ref().map(RankRow::from),
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SectionView {
    pub name: String,
    pub kind: SectionKind,
    pub cells: Vec<[i32; 2]>,
    /// The nation holding it after the last turn, if the viewer may know it; none when no one
    /// or several were there, or when the viewer's nation neither holds it nor saw it held.
    pub holder: Option<String>,
    /// The nation owning all its cells, as the map shows them (public): a section is held only
    /// while companies stand on it, owned or not.
    pub owner: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CastleView {
    pub name: String,
    pub sections: Vec<SectionView>,
}

impl CastleView {
    /// `GET /api/v1/worlds/{w}/castles`, and the standings page's castles.
    pub fn list(castles: Vec<Castle>) -> Vec<CastleView> {
        castles
            .into_iter()
            .map(|c| CastleView {
                name: c.name,
                sections: c.sections.into_iter().map(SectionView::from).collect(),
            })
            .collect()
    }
}

impl From<Section> for SectionView {
    fn from(s: Section) -> SectionView {
        SectionView {
            name: s.name,
            kind: s.kind,
            cells: s.cells.iter().map(|p| [p.x, p.y]).collect(),
            holder: s.holder,
            owner: s.owner,
        }
    }
}

/// The castle section of a cell picked on the world page, named in its panel.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CellSectionView {
    /// The castle's name.
    pub castle: String,
    #[serde(flatten)]
    pub section: SectionView,
}

impl From<crate::game::play::views::MapSection> for CellSectionView {
    fn from(s: crate::game::play::views::MapSection) -> CellSectionView {
        CellSectionView {
            castle: s.castle,
            section: s.section.into(),
        }
    }
}
