//! The screens the API serves, as the pages draw them: `GET /api/v1/worlds/{w}/screen` and
//! `GET /api/v1/companies/{c}/screen` (`game::screens`), said in the reader's language.

use crate::game::play::first_steps::FirstSteps;
use crate::game::play::views::CellInfo;
use crate::game::play::CompanyView;
use crate::game::screens::{company::CompanyScreen, world::WorldScreen};
use crate::game::talk::markers::MarkerView;
use crate::i18n::Lang;
use crate::ids::{CompanyId, EventId};
use crate::rules::Pos;
use crate::wire::play::MapAnswer;
use crate::wire::views::{
    rfc3339, CompanyLine, NationView, OptionsView, PlayerView, RaiseView, ReportView, SeenEnemy,
    WorldView,
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
    /// What the company in hand may do, the picked cell's orders judged too.
    pub options: Option<OptionsView>,
    pub report: Option<ReportView>,
    /// The first day's steps, until they are all done.
    pub first_day: Option<FirstSteps>,
    /// Whether the player may raise a company now; null unless they play in the world.
    pub raise: Option<RaiseView>,
    pub next_turn_at: Option<String>,
}

impl WorldScreenAnswer {
    pub fn of(s: WorldScreen, lang: Lang) -> WorldScreenAnswer {
        let sp = &s.standpoint;
        let w = &sp.world;
        let viewer = sp.player.as_ref().map(|p| p.nation_id);
        let (x0, y0, x1, y1) = s.view.rect;
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
            map: MapAnswer {
                x0,
                y0,
                x1,
                y1,
                cells: s.map.cells,
                companies: s.map.companies,
                grid: w.grid,
                edges: s.map.edges,
            },
            markers: s.markers,
            cell: s.cell,
            options: s.options.as_ref().map(|o| OptionsView::of(lang, o)),
            report: s.report.as_ref().map(|e| ReportView::of(e, lang)),
            first_day: s.first_day,
            raise: s.raise.as_ref().map(|r| RaiseView::of_api(lang, r)),
            next_turn_at: rfc3339(s.next_turn),
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
    pub fn of(s: CompanyScreen, lang: Lang) -> CompanyScreenAnswer {
        let here = Pos::new(s.company.x, s.company.y);
        let mut enemies: Vec<SeenEnemy> = s
            .enemies
            .iter()
            .map(|e| SeenEnemy::of(e, here, s.world.grid))
            .collect();
        enemies.sort_by_key(|e| (e.distance, e.id));
        CompanyScreenAnswer {
            options: OptionsView::of(lang, &s.options),
            report: s.report.as_ref().map(|e| ReportView::of(e, lang)),
            world: WorldView::from(&s.world),
            reserve: s.player.reserve,
            cell: s.cell,
            enemies,
            company: s.company,
        }
    }
}
