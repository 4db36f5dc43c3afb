//! The API's OpenAPI 3.1 description (`GET /api/v1/openapi.json`): every route of `/api/v1`
//! with the wire types it reads and answers, whose schemas come from the types themselves
//! (`utoipa::ToSchema`), the error body and each route's error statuses, and the bearer scheme.
//! docs/api.md keeps the prose; tests hold both to the routes and to the real answers.

use crate::game::gm::editor::{CellEdit, CompanyPatch};
use crate::game::maps::mapfile::MapFile;
use crate::wire::views::{CompanyView, RegimentView, UserView, WorldView};
use crate::wire::{accounts::*, campaign::*, editor::*, error::ErrorBody, gm::*, play::*};
use crate::wire::{push::*, talk::*, worlds::*};
use std::sync::OnceLock;
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    schema::ArrayBuilder, ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder,
    PathItem, PathsBuilder, Ref, RefOr, ResponseBuilder, Schema,
};
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// Who may call a route.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Auth {
    /// Anyone, and the answer is the same for all.
    Public,
    /// Anyone; a caller with a token is told more.
    Optional,
    /// A bearer token (or a session cookie).
    Bearer,
}

/// What a route answers when it succeeds.
enum Answer {
    Schema(u16, Box<RefOr<Schema>>),
    NoContent,
    /// Server-Sent Events; the payloads' schemas are named in the description.
    Stream(String),
}

/// One route of the description, as the table below writes it.
struct Route {
    method: HttpMethod,
    path: &'static str,
    tag: &'static str,
    summary: &'static str,
    auth: Auth,
    body: Option<(&'static str, RefOr<Schema>)>,
    query: Vec<utoipa::openapi::path::Parameter>,
    answer: Answer,
    errors: Vec<u16>,
}

/// The schemas the routes name, gathered as the table is read.
#[derive(Default)]
struct Schemas {
    all: Vec<(String, RefOr<Schema>)>,
}

impl Schemas {
    /// A reference to `T`'s schema, recording `T` and every type it names.
    fn of<T: ToSchema>(&mut self) -> RefOr<Schema> {
        self.all.push((T::name().into_owned(), T::schema()));
        T::schemas(&mut self.all);
        RefOr::Ref(Ref::from_schema_name(T::name()))
    }

    fn list_of<T: ToSchema>(&mut self) -> RefOr<Schema> {
        let item = self.of::<T>();
        ArrayBuilder::new().items(item).build().into()
    }
}

fn route(
    method: HttpMethod,
    path: &'static str,
    tag: &'static str,
    summary: &'static str,
) -> Route {
    Route {
        method,
        path,
        tag,
        summary,
        auth: Auth::Bearer,
        body: None,
        query: Vec::new(),
        answer: Answer::NoContent,
        errors: Vec::new(),
    }
}

impl Route {
    fn public(mut self) -> Route {
        self.auth = Auth::Public;
        self
    }

    fn optional(mut self) -> Route {
        self.auth = Auth::Optional;
        self
    }

    fn json(mut self, schema: RefOr<Schema>) -> Route {
        self.body = Some(("application/json", schema));
        self
    }

    fn text(mut self, content_type: &'static str) -> Route {
        self.body = Some((content_type, String::schema()));
        self
    }

    fn query<P: IntoParams>(mut self) -> Route {
        self.query = P::into_params(|| Some(ParameterIn::Query));
        self
    }

    fn ok(self, schema: RefOr<Schema>) -> Route {
        self.answers(200, schema)
    }

    fn created(self, schema: RefOr<Schema>) -> Route {
        self.answers(201, schema)
    }

    /// An event stream whose messages' `data` are the named schemas, one per event name.
    fn stream(mut self, events: Vec<(&'static str, RefOr<Schema>)>) -> Route {
        let names: Vec<String> = events
            .iter()
            .map(|(event, schema)| match schema {
                RefOr::Ref(r) => format!("`{event}`: {}", r.ref_location),
                RefOr::T(_) => format!("`{event}`"),
            })
            .collect();
        self.answer = Answer::Stream(format!(
            "Server-Sent Events, each `data:` one JSON object: {}",
            names.join("; ")
        ));
        self
    }

    fn answers(mut self, status: u16, schema: RefOr<Schema>) -> Route {
        self.answer = Answer::Schema(status, Box::new(schema));
        self
    }

    /// The error statuses particular to the route; `operation` adds those every route of its
    /// kind may answer.
    fn errors(mut self, statuses: &[u16]) -> Route {
        self.errors.extend_from_slice(statuses);
        self
    }

    /// The statuses of every refusal the route may answer.
    fn error_statuses(&self) -> Vec<u16> {
        let mut all = self.errors.clone();
        // Any route may find the database busy, or fail inside.
        all.extend([500, 503]);
        match self.auth {
            Auth::Bearer => all.extend([401, 403]),
            // Credentials that are sent must be good (a session with its CSRF token).
            Auth::Optional => all.extend([401, 403]),
            Auth::Public => {}
        }
        // A path parameter that is not a number names nothing.
        if self.path.contains('{') {
            all.push(404);
        }
        if self.body.is_some() || !self.query.is_empty() {
            all.push(422);
        }
        all.sort_unstable();
        all.dedup();
        all
    }

    fn operation(&self, error: &RefOr<Schema>) -> Operation {
        let mut op = OperationBuilder::new()
            .tag(self.tag)
            .summary(Some(self.summary))
            .operation_id(Some(operation_id(self.method.clone(), self.path)));
        for name in path_params(self.path) {
            let (schema, about) = path_param(name);
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Path)
                    .required(utoipa::openapi::Required::True)
                    .description(Some(about))
                    .schema(Some(schema)),
            );
        }
        for p in &self.query {
            op = op.parameter(p.clone());
        }
        if let Some((content_type, schema)) = &self.body {
            op = op.request_body(Some(
                RequestBodyBuilder::new()
                    .content(
                        *content_type,
                        ContentBuilder::new().schema(Some(schema.clone())).build(),
                    )
                    .required(Some(utoipa::openapi::Required::True))
                    .build(),
            ));
        }
        op = match &self.answer {
            Answer::Schema(status, schema) => op.response(
                status.to_string(),
                ResponseBuilder::new().description("the answer").content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(schema.as_ref().clone()))
                        .build(),
                ),
            ),
            Answer::NoContent => op.response("204", ResponseBuilder::new().description("done")),
            Answer::Stream(about) => op.response(
                "200",
                ResponseBuilder::new().description(about.as_str()).content(
                    "text/event-stream",
                    ContentBuilder::new().schema(Some(String::schema())).build(),
                ),
            ),
        };
        for status in self.error_statuses() {
            op = op.response(
                status.to_string(),
                ResponseBuilder::new()
                    .description(refusal_of(status))
                    .content(
                        "application/json",
                        ContentBuilder::new().schema(Some(error.clone())).build(),
                    ),
            );
        }
        match self.auth {
            Auth::Public => {}
            Auth::Optional => {
                op = op
                    .security(SecurityRequirement::default())
                    .security(SecurityRequirement::new("bearer", Vec::<String>::new()));
            }
            Auth::Bearer => {
                op = op.security(SecurityRequirement::new("bearer", Vec::<String>::new()));
            }
        }
        op.build()
    }
}

/// The names of a path's parameters, in order.
pub fn path_params(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
}

/// A path parameter's schema and meaning: the same name means the same thing on every route.
fn path_param(name: &str) -> (RefOr<Schema>, &'static str) {
    match name {
        "w" => (i32::schema(), "a world's id"),
        "c" => (i32::schema(), "a company's id"),
        "r" => (i32::schema(), "a regiment's id"),
        "id" => (i32::schema(), "the id of the thing the path names"),
        "x" | "y" => (i32::schema(), "a cell's coordinate"),
        "turn" => (i32::schema(), "a turn of the world"),
        "side" => (
            String::schema(),
            "a side of the cell: N, E, S, W (square) or E, NE, NW, W, SW, SE (hex)",
        ),
        "n" => (String::schema(), "a nation, by name or id"),
        "player" => (String::schema(), "a player's name"),
        _ => (String::schema(), "a name"),
    }
}

fn refusal_of(status: u16) -> &'static str {
    match status {
        401 => "no valid token or session",
        403 => "not allowed to this caller (a game master's route, a banned account, a block or a mute)",
        404 => "nothing of that id, or nothing the caller may see",
        409 => "refused by the state of the world (paused, the campaign over, a cell taken, a name in use)",
        422 => "the request is malformed, or an order the rules refuse",
        429 => "too many attempts: see Retry-After",
        503 => "the database is busy or away: nothing was done, try again (Retry-After)",
        _ => "the server failed; nothing was done",
    }
}

fn operation_id(method: HttpMethod, path: &str) -> String {
    let verb = match method {
        HttpMethod::Get => "get",
        HttpMethod::Post => "post",
        HttpMethod::Put => "put",
        HttpMethod::Patch => "patch",
        HttpMethod::Delete => "delete",
        _ => "other",
    };
    let rest: Vec<&str> = path
        .trim_start_matches("/api/v1/")
        .split('/')
        .map(|s| s.trim_start_matches('{').trim_end_matches('}'))
        .collect();
    format!("{verb}_{}", rest.join("_").replace('-', "_"))
}

/// The orders of `POST /api/v1/companies/{c}/{action}`, each under its own path.
fn orders(s: &mut Schemas) -> Vec<Route> {
    use HttpMethod::Post;
    let outcome = s.of::<Outcome>();
    let at = s.of::<AtBody>();
    let target = s.of::<TargetBody>();
    let path = |p, summary| route(Post, p, "orders", summary);
    vec![
        path(
            "/api/v1/companies/{c}/move",
            "move along a path, or the cheapest way to a cell",
        )
        .json(s.of::<MoveBody>())
        .ok(s.of::<MoveAnswer>())
        .errors(&[409]),
        path(
            "/api/v1/companies/{c}/volley",
            "fire a volley at a company in range",
        )
        .json(target.clone())
        .ok(outcome.clone())
        .errors(&[409]),
        path(
            "/api/v1/companies/{c}/melee",
            "charge a company next to this one",
        )
        .json(target)
        .ok(outcome.clone())
        .errors(&[409]),
        path(
            "/api/v1/companies/{c}/bombard",
            "bombard a cell (artillery)",
        )
        .json(at.clone())
        .ok(outcome.clone())
        .errors(&[409]),
        path("/api/v1/companies/{c}/heal", "heal the wounded")
            .ok(outcome.clone())
            .errors(&[409, 422]),
        path(
            "/api/v1/companies/{c}/build-bridge",
            "build a bridge over a river next to the company (sappers)",
        )
        .json(at.clone())
        .ok(outcome.clone())
        .errors(&[409]),
        path("/api/v1/companies/{c}/repair", "repair a structure")
            .json(at.clone())
            .ok(outcome.clone())
            .errors(&[409]),
        path(
            "/api/v1/companies/{c}/reinforce",
            "take men of the reserve into the company",
        )
        .json(s.of::<ReinforceBody>())
        .ok(outcome.clone())
        .errors(&[409]),
        path(
            "/api/v1/companies/{c}/ram",
            "ram an enemy gate next to the company",
        )
        .json(at.clone())
        .ok(outcome.clone())
        .errors(&[409]),
        path(
            "/api/v1/companies/{c}/build-siege-tower",
            "build a siege tower (sappers)",
        )
        .json(at)
        .ok(outcome)
        .errors(&[409]),
    ]
}

/// Every route of `/api/v1`.
fn routes(s: &mut Schemas) -> Vec<Route> {
    use HttpMethod::{Delete, Get, Patch, Post, Put};
    let world_view = s.of::<WorldView>();
    let cells = s.of::<CellsAnswer>();
    let created = s.of::<Created>();
    let regiment = s.of::<RegimentView>();
    let company = s.of::<CompanyView>();
    let blocked = s.of::<BlockedAnswer>();
    let user = s.of::<UserView>();
    let at = s.of::<AtBody>();
    let mut all = vec![
        route(Get, "/api/v1/openapi.json", "meta", "this description")
            .public()
            .ok(s.of::<serde_json::Value>()),
        // Accounts.
        route(Post, "/api/v1/users", "accounts", "register an account")
            .public()
            .json(s.of::<Credentials>())
            .created(user.clone())
            .errors(&[409, 429]),
        route(
            Post,
            "/api/v1/tokens",
            "accounts",
            "a new token for a username and password",
        )
        .public()
        .json(s.of::<Credentials>())
        .created(s.of::<NewToken>())
        .errors(&[401, 403, 429]),
        route(Get, "/api/v1/tokens", "accounts", "the caller's tokens").ok(s.of::<TokenList>()),
        route(
            Delete,
            "/api/v1/tokens/{id}",
            "accounts",
            "revoke one of the caller's tokens",
        ),
        route(Get, "/api/v1/me", "accounts", "the caller").ok(user),
        route(
            Post,
            "/api/v1/webhooks",
            "accounts",
            "send the caller's alerts to a webhook (https, public address)",
        )
        .json(s.of::<NewWebhook>())
        .created(s.of::<WebhookView>())
        .errors(&[409, 422]),
        route(Get, "/api/v1/webhooks", "accounts", "the caller's webhooks")
            .ok(s.of::<WebhookList>()),
        route(
            Delete,
            "/api/v1/webhooks/{id}",
            "accounts",
            "remove one of the caller's webhooks",
        ),
        route(
            Get,
            "/api/v1/push/key",
            "accounts",
            "the server's VAPID public key (a browser's applicationServerKey)",
        )
        .public()
        .ok(s.of::<PushKey>()),
        route(
            Post,
            "/api/v1/push/subscriptions",
            "accounts",
            "push the caller's alerts to this browser (its PushSubscription as JSON)",
        )
        .json(s.of::<NewSubscriptionInput>())
        .created(s.of::<SubscriptionView>())
        .errors(&[409, 422]),
        route(
            Get,
            "/api/v1/push/subscriptions",
            "accounts",
            "the caller's browsers that take pushes",
        )
        .ok(s.of::<SubscriptionList>()),
        route(
            Delete,
            "/api/v1/push/subscriptions/{id}",
            "accounts",
            "stop pushing to one of the caller's browsers",
        ),
        route(
            Get,
            "/api/v1/push/settings",
            "accounts",
            "the caller's reminders, quiet hours and daily cap",
        )
        .ok(s.of::<PushSettingsView>()),
        route(
            Put,
            "/api/v1/push/settings",
            "accounts",
            "choose reminders, quiet hours and the daily cap",
        )
        .json(s.of::<PushSettingsView>())
        .ok(s.of::<PushSettingsView>())
        .errors(&[422]),
        route(
            Get,
            "/api/v1/alerts",
            "accounts",
            "the caller's latest alerts, marked read",
        )
        .ok(s.of::<AlertList>()),
        // Worlds.
        route(Get, "/api/v1/worlds", "worlds", "every world")
            .public()
            .ok(s.of::<WorldList>()),
        route(
            Get,
            "/api/v1/worlds/{w}",
            "worlds",
            "a world, its nations and its next ticks",
        )
        .optional()
        .ok(s.of::<WorldAnswer>()),
        route(
            Get,
            "/api/v1/worlds/{w}/dice/{turn}",
            "worlds",
            "the seed of an ended turn",
        )
        .public()
        .ok(s.of::<RevealedSeed>()),
        route(
            Get,
            "/api/v1/worlds/{w}/map",
            "playing",
            "a rectangle of the map, as the caller sees it",
        )
        .query::<Rect>()
        .ok(s.of::<MapAnswer>()),
        route(
            Get,
            "/api/v1/worlds/{w}/events",
            "playing",
            "the reports of the caller's companies",
        )
        .query::<Since>()
        .ok(s.of::<EventList>()),
        route(
            Get,
            "/api/v1/worlds/{w}/live",
            "playing",
            "the world as it moves, as the caller's nation sees it (Server-Sent Events)",
        )
        .query::<crate::wire::live::LiveQuery>()
        .stream({
            use crate::wire::live::*;
            vec![
                ("turn", s.of::<TurnNews>()),
                ("company", s.of::<CompanyNews>()),
                ("seen", s.of::<SeenNews>()),
                ("report", s.of::<ReportNews>()),
                ("alert", s.of::<crate::wire::views::AlertView>()),
                ("message", s.of::<MessageNews>()),
                ("world", s.of::<WorldNews>()),
                ("resync", s.of::<ResyncNews>()),
            ]
        })
        .errors(&[429]),
        route(
            Get,
            "/api/v1/worlds/{w}/nations",
            "playing",
            "the nations' scoreboard",
        )
        .ok(s.of::<NationList>()),
        // Playing.
        route(
            Post,
            "/api/v1/worlds/{w}/join",
            "playing",
            "join a nation of the world",
        )
        .json(s.of::<JoinBody>())
        .created(s.of::<Joined>())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/companies",
            "playing",
            "raise a company",
        )
        .json(s.of::<RaiseBody>())
        .created(company.clone())
        .errors(&[409]),
        route(
            Get,
            "/api/v1/companies/{c}",
            "playing",
            "one of the caller's companies",
        )
        .ok(company.clone()),
        route(
            Get,
            "/api/v1/companies/{c}/options",
            "playing",
            "what the company may do now",
        )
        .query::<OptionsQuery>()
        .ok(s.of::<crate::wire::views::OptionsView>()),
        route(
            Get,
            "/api/v1/worlds/{w}/screen",
            "playing",
            "the world screen, as the world page draws it",
        )
        .optional()
        .query::<crate::wire::screens::ScreenQuery>()
        .ok(s.of::<crate::wire::screens::WorldScreenAnswer>()),
        route(
            Get,
            "/api/v1/companies/{c}/screen",
            "playing",
            "the company screen, as the company page draws it",
        )
        .query::<crate::wire::screens::CompanyScreenQuery>()
        .ok(s.of::<crate::wire::screens::CompanyScreenAnswer>()),
        route(Post, "/api/v1/worlds/{w}/leave", "playing", "take leave")
            .json(s.of::<LeaveBody>())
            .ok(s.of::<LeaveAnswer>())
            .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/regiments",
            "playing",
            "found a regiment",
        )
        .json(s.of::<RegimentBody>())
        .created(regiment.clone())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/regiments/{r}/join",
            "playing",
            "join a regiment",
        )
        .ok(regiment.clone())
        .errors(&[409]),
        route(
            Put,
            "/api/v1/worlds/{w}/regiments/{r}/headquarters",
            "playing",
            "set the regiment's headquarters",
        )
        .json(at.clone())
        .ok(regiment)
        .errors(&[409]),
        // The campaign.
        route(
            Get,
            "/api/v1/worlds/{w}/standings",
            "campaign",
            "the campaign's standings",
        )
        .public()
        .ok(s.of::<Standings>()),
        route(
            Get,
            "/api/v1/worlds/{w}/history",
            "campaign",
            "the nations' figures turn by turn",
        )
        .optional()
        .ok(s.of::<History>()),
        route(
            Get,
            "/api/v1/worlds/{w}/castles",
            "campaign",
            "the castles and the holders the caller may know",
        )
        .optional()
        .ok(s.list_of::<CastleView>()),
        route(
            Get,
            "/api/v1/worlds/{w}/rankings",
            "campaign",
            "the players' rankings",
        )
        .query::<RankingsQuery>()
        .ok(s.of::<Rankings>()),
        route(
            Post,
            "/api/v1/worlds/{w}/end",
            "campaign",
            "end the campaign (game master)",
        )
        .ok(s.of::<EndAnswer>())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/next",
            "campaign",
            "start the next campaign (game master)",
        )
        .json(s.of::<NextBody>())
        .created(s.of::<NextAnswer>())
        .errors(&[409]),
        // Talking.
        route(
            Post,
            "/api/v1/worlds/{w}/messages",
            "talking",
            "send a message",
        )
        .json(s.of::<SendBody>())
        .created(s.of::<MessageView>())
        .errors(&[409, 429]),
        route(
            Get,
            "/api/v1/worlds/{w}/messages",
            "talking",
            "the caller's messages",
        )
        .query::<SinceQuery>()
        .ok(s.of::<MessagesAnswer>()),
        route(
            Post,
            "/api/v1/messages/{id}/report",
            "talking",
            "report a message to the game masters",
        )
        .json(s.of::<ReportBody>())
        .ok(s.of::<ReportAnswer>())
        .errors(&[409]),
        route(
            Delete,
            "/api/v1/messages/{id}",
            "talking",
            "remove a message (game master)",
        ),
        route(
            Get,
            "/api/v1/worlds/{w}/message-reports",
            "talking",
            "the open reports (game master)",
        )
        .ok(s.of::<ReportsAnswer>()),
        route(
            Delete,
            "/api/v1/worlds/{w}/message-reports/{id}",
            "talking",
            "dismiss a report (game master)",
        ),
        route(
            Post,
            "/api/v1/worlds/{w}/mutes",
            "talking",
            "mute a player (game master)",
        )
        .json(s.of::<MuteBody>())
        .ok(s.of::<MuteAnswer>()),
        route(
            Post,
            "/api/v1/worlds/{w}/blocks",
            "talking",
            "block a player",
        )
        .json(s.of::<BlockBody>())
        .created(blocked.clone()),
        route(
            Get,
            "/api/v1/worlds/{w}/blocks",
            "talking",
            "the players the caller blocks",
        )
        .ok(blocked),
        route(
            Delete,
            "/api/v1/worlds/{w}/blocks/{player}",
            "talking",
            "lift a block",
        ),
        route(
            Post,
            "/api/v1/worlds/{w}/markers",
            "talking",
            "drop a marker on the map",
        )
        .json(s.of::<MarkerBody>())
        .created(s.of::<MarkerView>())
        .errors(&[409, 429]),
        route(
            Get,
            "/api/v1/worlds/{w}/markers",
            "talking",
            "the markers the caller's nation sees",
        )
        .ok(s.of::<MarkersAnswer>()),
        route(
            Delete,
            "/api/v1/markers/{id}",
            "talking",
            "remove a marker (its author or a game master)",
        ),
        // Game masters.
        route(
            Patch,
            "/api/v1/worlds/{w}",
            "game masters",
            "pause, change season or victory",
        )
        .json(s.of::<WorldPatch>())
        .ok(world_view)
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/ticks",
            "game masters",
            "run a turn or a season now",
        )
        .json(s.of::<TickBody>())
        .created(s.of::<TickAnswer>())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/bots",
            "game masters",
            "seat a bot (a player played by the server) in a nation",
        )
        .json(s.of::<NewBot>())
        .created(s.of::<BotView>())
        .errors(&[409, 422]),
        route(
            Get,
            "/api/v1/worlds/{w}/bots",
            "game masters",
            "the bots seated in a world",
        )
        .ok(s.of::<BotList>()),
        route(
            Delete,
            "/api/v1/worlds/{w}/bots/{name}",
            "game masters",
            "stop a bot (its companies stay, and give no more orders)",
        ),
        route(
            Put,
            "/api/v1/worlds/{w}/cells/{x}/{y}",
            "game masters",
            "edit a cell",
        )
        .json(s.of::<CellEdit>())
        .ok(s.of::<EditedCell>())
        .errors(&[409]),
        route(
            Put,
            "/api/v1/worlds/{w}/cells",
            "game masters",
            "edit cells in one batch",
        )
        .json(s.of::<Batch>())
        .ok(cells.clone())
        .errors(&[409]),
        route(
            Put,
            "/api/v1/worlds/{w}/edges/{x}/{y}/{side}",
            "game masters",
            "put or take off an edge's feature",
        )
        .json(s.of::<EdgeBody>())
        .ok(s.of::<EdgeAnswer>())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/{w}/undo",
            "game masters",
            "undo the last edit",
        )
        .ok(cells)
        .errors(&[409]),
        route(
            Put,
            "/api/v1/worlds/{w}/nations/{n}/spawn",
            "game masters",
            "move a nation's spawn",
        )
        .json(at)
        .ok(s.of::<SpawnAnswer>())
        .errors(&[409]),
        route(
            Patch,
            "/api/v1/companies/{c}",
            "game masters",
            "change a company by hand",
        )
        .json(s.of::<CompanyPatch>())
        .ok(company)
        .errors(&[409]),
        route(
            Delete,
            "/api/v1/companies/{c}",
            "game masters",
            "remove a company",
        )
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds",
            "game masters",
            "create a world from a map file",
        )
        .json(s.of::<MapFile>())
        .created(created.clone())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/generate",
            "game masters",
            "generate a world",
        )
        .json(s.of::<GenerateBody>())
        .created(created.clone())
        .errors(&[409]),
        route(
            Post,
            "/api/v1/worlds/import-tiled",
            "game masters",
            "import a Tiled map (TMX or JSON)",
        )
        .query::<TiledQuery>()
        .text("application/xml")
        .created(created)
        .errors(&[409]),
        route(
            Get,
            "/api/v1/worlds/{w}/export",
            "game masters",
            "the world's map file",
        )
        .ok(s.of::<MapFile>()),
        route(
            Get,
            "/api/v1/worlds/{w}/audit",
            "game masters",
            "the editor's audit log",
        )
        .query::<AuditQuery>()
        .ok(s.of::<AuditAnswer>()),
    ];
    all.extend(orders(s));
    all
}

/// The methods the description gives the path (a concrete one, `/api/v1/worlds/3`), from
/// the templates that name most of its segments, as the router prefers `/worlds/generate` to
/// `/worlds/{w}`.
pub fn methods_at(path: &str) -> Vec<&'static str> {
    let literal = |template: &str| literal_fit(template, path);
    let paths = &description().paths.paths;
    let best = paths.keys().filter_map(|t| literal(t)).max();
    let mut out = Vec::new();
    for (template, item) in paths {
        if best.is_none() || literal(template) != best {
            continue;
        }
        for (method, op) in [
            ("GET", &item.get),
            ("POST", &item.post),
            ("PUT", &item.put),
            ("PATCH", &item.patch),
            ("DELETE", &item.delete),
        ] {
            if op.is_some() && !out.contains(&method) {
                out.push(method);
            }
        }
    }
    out
}

/// How many segments of a concrete path a template (`/api/v1/worlds/{w}`) names literally,
/// if it matches the path at all: the router prefers the template that names most.
pub fn literal_fit(template: &str, path: &str) -> Option<usize> {
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    let fits = t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(a, b)| a == b || (a.starts_with('{') && !b.is_empty()));
    fits.then(|| t.iter().filter(|a| !a.starts_with('{')).count())
}

/// The description, built once.
pub fn description() -> &'static OpenApi {
    static DOC: OnceLock<OpenApi> = OnceLock::new();
    DOC.get_or_init(build)
}

/// The description as the route serves it.
pub fn description_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| description().to_json().unwrap_or_default())
}

fn build() -> OpenApi {
    let mut s = Schemas::default();
    let error = s.of::<ErrorBody>();
    let mut paths = PathsBuilder::new();
    let all = routes(&mut s);
    let mut items: Vec<(&str, PathItem)> = Vec::new();
    for r in &all {
        let op = r.operation(&error);
        match items.iter_mut().find(|(p, _)| *p == r.path) {
            Some((_, item)) => set_operation(item, r.method.clone(), op),
            None => items.push((r.path, PathItem::new(r.method.clone(), op))),
        }
    }
    for (p, item) in items {
        paths = paths.path(p, item);
    }
    let mut components = ComponentsBuilder::new().security_scheme(
        "bearer",
        SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
    );
    for (name, schema) in unique(s.all) {
        components = components.schema(name, schema);
    }
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Grognard")
                .version("1")
                .description(Some(
                    "The JSON API of a Grognard server. Every refusal is \
                     `{\"error\": {\"code\", \"message\"}}`; docs/api.md tells the codes.",
                ))
                .build(),
        )
        .paths(paths.build())
        .components(Some(components.build()))
        .build()
}

fn set_operation(item: &mut PathItem, method: HttpMethod, op: Operation) {
    let slot = match method {
        HttpMethod::Get => &mut item.get,
        HttpMethod::Post => &mut item.post,
        HttpMethod::Put => &mut item.put,
        HttpMethod::Patch => &mut item.patch,
        HttpMethod::Delete => &mut item.delete,
        HttpMethod::Head => &mut item.head,
        HttpMethod::Options => &mut item.options,
        HttpMethod::Trace => &mut item.trace,
    };
    *slot = Some(op);
}

/// The schemas by name, each once. Two different types under one name would make one of them
/// say the other's fields: the tests' `collisions` tells.
fn unique(all: Vec<(String, RefOr<Schema>)>) -> Vec<(String, RefOr<Schema>)> {
    let mut out: Vec<(String, RefOr<Schema>)> = Vec::new();
    for (name, schema) in all {
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, schema));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names given to two different schemas.
    fn collisions() -> Vec<String> {
        let mut s = Schemas::default();
        s.of::<ErrorBody>();
        routes(&mut s);
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut clash = Vec::new();
        for (name, schema) in s.all {
            let text = serde_json::to_string(&schema).unwrap_or_default();
            match seen.iter().find(|(n, _)| *n == name) {
                Some((_, t)) if *t != text => clash.push(name),
                Some(_) => {}
                None => seen.push((name, text)),
            }
        }
        clash.sort();
        clash.dedup();
        clash
    }

    #[test]
    fn no_two_types_share_a_name() {
        assert_eq!(collisions(), Vec::<String>::new());
    }

    #[test]
    fn every_reference_names_a_schema() {
        let json = description_json();
        let doc: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(doc["openapi"], "3.1.0");
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let mut missing = Vec::new();
        for part in json.split("\"$ref\":\"#/components/schemas/").skip(1) {
            let name = &part[..part.find('"').unwrap()];
            if !schemas.contains_key(name) {
                missing.push(name.to_string());
            }
        }
        assert!(missing.is_empty(), "{missing:?}");
    }
}
