//! The screens the API serves, as the pages draw them: `GET /api/v1/worlds/{w}/screen` and
//! `GET /api/v1/companies/{c}/screen` (`game::screens`), said in the reader's language.

use crate::game::play::first_steps;
use crate::game::screens::{company::CompanyScreen, world::WorldScreen};
use crate::i18n::Lang;
use crate::ids::{CompanyId, EventId};
use crate::rules::{Pos, Ruleset};
use crate::wire::play::MapAnswer;
use crate::wire::talk::MarkerView;
use crate::wire::views::{
    rfc3339, CellInfo, CompanyLine, CompanyView, NationView, OptionsView, PlayerView, RaiseView,
    ReportView, SeenEnemy, WorldView,
};
use serde::{Deserialize, Serialize};

/// `GET /api/v1/worlds/{w}/screen`: the view's rectangle (by default the one around the
/// company in hand, the player's first company, their nation's spawn or the world's middle),
/// the company in hand, the cell picked and a report.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ScreenQuery {
    pub x0: Option<i32>,
    pub y0: Option<i32>,
    pub x1: Option<i32>,
    pub y1: Option<i32>,
    #[param(value_type = Option<i32>)]
    pub company: Option<CompanyId>,
    /// A cell, `x,y`.
    pub cell: Option<String>,
    #[param(value_type = Option<i32>)]
    pub report: Option<EventId>,
}

/// The world screen.
#[derive(Serialize, utoipa::ToSchema)]
pub struct WorldScreenAnswer {
    pub world: WorldView,
    pub nations: Vec<NationView>,
    /// The viewer's player; null for a visitor or someone who has not joined.
    pub player: Option<PlayerView>,
    pub companies: Vec<CompanyLine>,
    /// The company in hand.
    #[schema(value_type = Option<i32>)]
    pub selected: Option<CompanyId>,
    pub map: MapAnswer,
    pub markers: Vec<MarkerView>,
    pub cell: Option<CellInfo>,
    /// The castle section of the picked cell, its holder as the viewer's nation may know it.
    pub cell_section: Option<crate::wire::campaign::CellSectionView>,
    /// What the company in hand may do, the picked cell's orders judged too.
    pub options: Option<OptionsView>,
    pub report: Option<ReportView>,
    /// The first day's steps, until they are all done.
    pub first_day: Option<FirstSteps>,
    /// Whether the player may raise a company now; null unless they play in the world.
    pub raise: Option<RaiseView>,
    pub next_turn_at: Option<String>,
    /// The nations a bot (a player played by the server) plays, by name.
    pub bots: Vec<String>,
}

impl WorldScreenAnswer {
    pub fn of(rs: &Ruleset, s: WorldScreen, lang: Lang) -> WorldScreenAnswer {
        let sp = &s.standpoint;
        let w = &sp.world;
        let viewer = sp.player.as_ref().map(|p| p.nation_id);
        WorldScreenAnswer {
            world: WorldView::from(w),
            nations: sp
                .nations
                .iter()
                .map(|n| NationView::of(n, viewer, w.ended()))
                .collect(),
            player: sp
                .player
                .as_ref()
                .map(|p| PlayerView::of(p, sp.my_nation())),
            companies: sp.mine.iter().map(CompanyLine::from).collect(),
            selected: sp.selected,
            map: MapAnswer::of(s.view.rect, w.grid, s.map),
            markers: s.markers.iter().map(MarkerView::from).collect(),
            cell: s.cell.as_ref().map(|c| CellInfo::of(rs, w.season, c)),
            cell_section: s
                .cell_section
                .clone()
                .map(crate::wire::campaign::CellSectionView::from),
            options: s.options.as_ref().map(|o| OptionsView::of(rs, lang, o)),
            report: s.report.as_ref().map(|e| ReportView::of(e, lang)),
            first_day: s.first_day.map(FirstSteps::of),
            raise: s.raise.as_ref().map(|r| RaiseView::of_api(lang, r)),
            next_turn_at: rfc3339(s.next_turn),
            bots: s.bots,
        }
    }
}

/// `GET /api/v1/companies/{c}/screen`: a report to show beside the company.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CompanyScreenQuery {
    #[param(value_type = Option<i32>)]
    pub report: Option<EventId>,
}

/// The company screen.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompanyScreenAnswer {
    pub company: CompanyView,
    pub world: WorldView,
    /// The player's reserve of men.
    pub reserve: i32,
    pub cell: Option<CellInfo>,
    /// Other nations' companies in sight, nearest first.
    pub enemies: Vec<SeenEnemy>,
    pub options: OptionsView,
    pub report: Option<ReportView>,
}

impl CompanyScreenAnswer {
    pub fn of(rs: &Ruleset, s: CompanyScreen, lang: Lang) -> CompanyScreenAnswer {
        let here = Pos::new(s.company.x, s.company.y);
        let mut enemies: Vec<SeenEnemy> = s
            .enemies
            .iter()
            .map(|e| {
                SeenEnemy::of(
                    e,
                    s.nations.iter().find(|n| n.id == e.0.nation_id),
                    here,
                    s.world.grid,
                )
            })
            .collect();
        enemies.sort_by_key(|e| (e.distance, e.id));
        CompanyScreenAnswer {
            options: OptionsView::of(rs, lang, &s.options),
            report: s.report.as_ref().map(|e| ReportView::of(e, lang)),
            world: WorldView::from(&s.world),
            reserve: s.player.reserve,
            cell: s.cell.as_ref().map(|c| CellInfo::of(rs, s.world.season, c)),
            enemies,
            company: CompanyView::of(&s.company, s.hidden),
        }
    }
}

/// The checklist, in the order a player meets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct FirstSteps {
    pub join: bool,
    pub raise: bool,
    #[serde(rename = "move")]
    pub move_: bool,
    pub fog: bool,
    pub volley: bool,
    pub report: bool,
}

impl FirstSteps {
    /// The checklist of a player's bits (`game::play::first_steps`): a player has joined.
    pub fn of(bits: i32) -> FirstSteps {
        let has = |bit: i32| bits & bit != 0;
        FirstSteps {
            join: true,
            raise: has(first_steps::RAISED),
            move_: has(first_steps::MOVED),
            fog: has(first_steps::LOOKED_INTO_FOG),
            volley: has(first_steps::FIRED),
            report: has(first_steps::READ_A_REPORT),
        }
    }

    /// How many steps the checklist has.
    pub const COUNT: u32 = 6;

    /// `(step, done)` in order, as the page lists them.
    pub fn steps(&self) -> [(&'static str, bool); 6] {
        [
            ("join", self.join),
            ("raise", self.raise),
            ("move", self.move_),
            ("fog", self.fog),
            ("volley", self.volley),
            ("report", self.report),
        ]
    }

    /// The steps as the page's template lists them.
    pub fn list(&self) -> Vec<Step> {
        self.steps()
            .into_iter()
            .map(|(step, done)| Step { step, done })
            .collect()
    }

    /// A number below `2^COUNT` for each state of the checklist: bit i for step i done.
    pub fn index(&self) -> u32 {
        self.steps()
            .iter()
            .enumerate()
            .map(|(i, (_, done))| u32::from(*done) << i)
            .sum()
    }

    /// The checklist of [`FirstSteps::index`].
    pub fn from_index(i: u32) -> FirstSteps {
        let done = |bit: u32| i & (1 << bit) != 0;
        FirstSteps {
            join: done(0),
            raise: done(1),
            move_: done(2),
            fog: done(3),
            volley: done(4),
            report: done(5),
        }
    }
}

/// One line of the checklist.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Step {
    pub step: &'static str,
    pub done: bool,
}

#[cfg(test)]
mod tests {
    use super::FirstSteps;
    use crate::game::play::first_steps;

    #[test]
    fn each_state_of_the_checklist_has_its_own_index() {
        for i in 0..1u32 << FirstSteps::COUNT {
            let steps = FirstSteps::from_index(i);
            assert_eq!(steps.index(), i);
            assert_eq!(
                steps.list().iter().filter(|s| s.done).count(),
                i.count_ones() as usize
            );
        }
        let fresh = FirstSteps::of(0);
        assert_eq!(fresh.index(), 1);
        assert_eq!(fresh.list()[0].step, "join");
        let moved = FirstSteps::of(first_steps::MOVED | first_steps::ALL_DONE);
        assert_eq!(
            (moved.move_, moved.raise, moved.report),
            (true, false, false)
        );
    }
}
