//! The closed sets of names of the public contract: terrains, kinds, seasons.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Position in `ALL`, for table lookups.
            pub fn index(self) -> usize {
                self as usize
            }
        }

        // Written by hand: the derive does not read a `rename` given through the macro.
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($text),+]))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownName { what: stringify!($name), name: s.to_string() }),
                }
            }
        }
    };
}

/// A name that is not one of the closed set it was parsed as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    pub what: &'static str,
    pub name: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} `{}`", self.what.to_lowercase(), self.name)
    }
}

impl std::error::Error for UnknownName {}

named_enum!(
    /// The terrains of docs/rules.md §2.
    Terrain {
        Plain => "plain",
        Marsh => "marsh",
        Forest => "forest",
        River => "river",
        Mountain => "mountain",
        Plateau => "plateau",
        Slope => "slope",
        Village => "village",
        Town => "town",
        Church => "church",
        Farm => "farm",
        Mine => "mine",
        Mill => "mill",
        Fields => "fields",
        Animals => "animals",
        Road => "road",
        Bridge => "bridge",
        Fort => "fort",
        Fortifications => "fortifications",
        Wall => "wall",
        FortifiedWall => "fortified_wall",
        Tower => "tower",
        Gate => "gate",
        Courtyard => "courtyard",
        Building => "building",
    }
);

named_enum!(
    /// The company kinds of docs/rules.md §3.
    Kind {
        Infantry => "infantry",
        Voltigeurs => "voltigeurs",
        Cavalry => "cavalry",
        Artillery => "artillery",
        Sappers => "sappers",
    }
);

named_enum!(
    /// How a kind moves among castle walls (docs/rules.md §12): on foot (infantry,
    /// voltigeurs, sappers), mounted (cavalry) or as a war machine (artillery).
    Class {
        Foot => "foot",
        Mounted => "mounted",
        Machine => "machine",
    }
);

named_enum!(
    /// How well a bot plays (docs/rules.md §14).
    BotLevel {
        Easy => "easy",
        Normal => "normal",
        Hard => "hard",
    }
);

named_enum!(
    /// The two seasons; move costs depend on them.
    Season {
        Summer => "summer",
        Winter => "winter",
    }
);

impl Season {
    pub fn flipped(self) -> Season {
        match self {
            Season::Summer => Season::Winter,
            Season::Winter => Season::Summer,
        }
    }
}

named_enum!(
    /// Who a user is on the site: game masters and admins hold the GM tools.
    Role {
        Player => "player",
        Gm => "gm",
        Admin => "admin",
    }
);

impl Role {
    /// Game masters and admins hold the GM tools.
    pub fn is_gm(self) -> bool {
        self >= Role::Gm
    }

    /// Admins alone change roles and ban.
    pub fn is_admin(self) -> bool {
        self == Role::Admin
    }
}

/// Where a message was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Private,
    Nation,
    World,
}

/// What the rankings sort by, most first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RankBy {
    /// Enemy men put out of action (killed and wounded).
    #[default]
    Inflicted,
    /// Own men lost.
    Lost,
    /// Mines, towns and castle sections taken.
    Captures,
    Xp,
    /// Turns in which the player gave an order.
    Turns,
    /// The player's nation's victory points.
    Points,
}

impl RankBy {
    pub const ALL: [RankBy; 6] = [
        RankBy::Inflicted,
        RankBy::Lost,
        RankBy::Captures,
        RankBy::Xp,
        RankBy::Turns,
        RankBy::Points,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RankBy::Inflicted => "inflicted",
            RankBy::Lost => "lost",
            RankBy::Captures => "captures",
            RankBy::Xp => "xp",
            RankBy::Turns => "turns",
            RankBy::Points => "points",
        }
    }
}

named_enum!(
    /// What a tick advances: a world's turn, or its season.
    TickKind {
        Turn => "turn",
        Season => "season",
    }
);

named_enum!(
    /// What an event records (the `kind` of an events row and of the API's events): an order,
    /// a raise, a leave, a tick, a campaign's end. The texts are stored and published
    /// (docs/api.md), so a variant's text never changes; a kind no longer written stays here
    /// for the rows that hold it.
    EventKind {
        Move => "move",
        Volley => "volley",
        Melee => "melee",
        Bombard => "bombard",
        Ram => "ram",
        Repair => "repair",
        SiegeTower => "siege_tower",
        Bridge => "bridge",
        Heal => "heal",
        Reinforce => "reinforce",
        Raise => "raise",
        Leave => "leave",
        CampaignEnd => "campaign_end",
        Turn => "turn",
        Season => "season",
    }
);

named_enum!(
    /// The events of a live stream (DESIGN.md §4), each the `event:` of its message.
    LiveEvent {
        Turn => "turn",
        Company => "company",
        Seen => "seen",
        Report => "report",
        Alert => "alert",
        Message => "message",
        World => "world",
        Resync => "resync",
    }
);

named_enum!(
    /// What a row of the live log says changed (stored in `live_log.topic`): an event was
    /// recorded, an alert given, a user's messages' badge or credentials changed, a game master
    /// edited the map or the world.
    LiveTopic {
        Event => "event",
        Alert => "alert",
        Message => "message",
        Map => "map",
        World => "world",
        Access => "access",
    }
);

impl From<TickKind> for EventKind {
    /// The event a tick of this kind leaves.
    fn from(k: TickKind) -> EventKind {
        match k {
            TickKind::Turn => EventKind::Turn,
            TickKind::Season => EventKind::Season,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text() {
        for t in Terrain::ALL {
            assert_eq!(t.as_str().parse::<Terrain>().unwrap(), *t);
        }
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>().unwrap(), *k);
        }
        assert_eq!(Terrain::ALL.len(), 25);
        assert_eq!(
            "fortified_wall".parse::<Terrain>(),
            Ok(Terrain::FortifiedWall)
        );
        assert_eq!(
            serde_json::to_string(&Terrain::FortifiedWall).unwrap(),
            "\"fortified_wall\""
        );
        assert_eq!(Kind::ALL.len(), 5);
        assert!("swamp".parse::<Terrain>().is_err());
    }

    #[test]
    fn event_kinds_keep_the_texts_stored_before() {
        // Written out, not derived: rows and API answers hold these texts.
        let stored = [
            "move",
            "volley",
            "melee",
            "bombard",
            "ram",
            "repair",
            "siege_tower",
            "bridge",
            "heal",
            "reinforce",
            "raise",
            "leave",
            "campaign_end",
            "turn",
            "season",
        ];
        let texts: Vec<&str> = EventKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(texts, stored);
        for k in EventKind::ALL {
            assert_eq!(k.as_str().parse::<EventKind>(), Ok(*k));
            assert_eq!(
                serde_json::to_string(k).unwrap(),
                format!("\"{}\"", k.as_str())
            );
        }
        for refused in ["", "Move", "attack", "siege-tower", " move"] {
            assert!(refused.parse::<EventKind>().is_err(), "{refused:?}");
        }
        assert_eq!(EventKind::from(TickKind::Turn), EventKind::Turn);
        assert_eq!(EventKind::from(TickKind::Season), EventKind::Season);
    }

    #[test]
    fn season_flip_alternates() {
        assert_eq!(Season::Summer.flipped(), Season::Winter);
        assert_eq!(Season::Winter.flipped(), Season::Summer);
    }
}

named_enum!(
    /// The shape of a world's cells (docs/rules.md §13).
    Grid {
        Square => "square",
        Hex => "hex",
    }
);

named_enum!(
    /// A side of a cell: N E S W on a square grid, E NE NW W SW SE on a hex grid.
    Side {
        N => "N",
        NE => "NE",
        E => "E",
        SE => "SE",
        S => "S",
        SW => "SW",
        W => "W",
        NW => "NW",
    }
);

named_enum!(
    /// What a cell's side may carry (docs/rules.md §13).
    EdgeFeature {
        Rampart => "rampart",
    }
);

named_enum!(
    /// How much a terrain hides a company a volley's line passes by (docs/rules.md §13).
    Cover {
        Exposed => "exposed",
        Light => "light",
        Dense => "dense",
    }
);
