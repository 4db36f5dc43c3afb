//! Every route of the site and the API, in one place.

use super::{api, assets, pages};
use actix_web::{guard, web};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(api::json_config())
        .app_data(api::path_config())
        .app_data(api::query_config())
        .app_data(api::form_config())
        .app_data(web::PayloadConfig::new(api::BODY_LIMIT))
        .route("/worlds/{w}", web::get().to(pages::world::show))
        .route("/healthz", web::get().to(pages::health::healthz))
        .route("/metrics", web::get().to(pages::metrics::metrics))
        .route("/static/{file}", web::get().to(assets::serve))
        .route("/", web::get().to(pages::home::index))
        .route("/register", web::get().to(pages::login::register_form))
        .route("/register", web::post().to(pages::login::register))
        .route("/login", web::get().to(pages::login::login_form))
        .route("/login", web::post().to(pages::login::login))
        .route("/logout", web::post().to(pages::login::logout))
        .route("/account", web::get().to(pages::account::index))
        .route("/account/alerts", web::post().to(pages::alerts::set_mail))
        .route("/account/push", web::post().to(pages::alerts::set_push))
        .route("/account/away", web::post().to(pages::alerts::set_away))
        .route("/alerts", web::get().to(pages::alerts::index))
        .route("/rules", web::get().to(pages::rules::index))
        .route("/lang/{code}", web::get().to(pages::lang::choose))
        .route(
            "/unsubscribe/{token}",
            web::get().to(pages::alerts::unsubscribe),
        )
        .route(
            "/unsubscribe/{token}",
            web::post().to(pages::alerts::unsubscribe),
        )
        .route(
            "/account/tokens",
            web::post().to(pages::account::create_token),
        )
        .route(
            "/account/password",
            web::post().to(pages::account::change_password),
        )
        .route(
            "/account/tokens/{id}/revoke",
            web::post().to(pages::account::revoke_token),
        )
        .route("/admin/users", web::get().to(pages::admin::users))
        .route(
            "/admin/users/{id}",
            web::post().to(pages::admin::update_user),
        )
        .route("/worlds/{w}/join", web::post().to(pages::orders::join))
        .route(
            "/worlds/{w}/companies",
            web::post().to(pages::orders::raise),
        )
        .route("/worlds/{w}/reports", web::get().to(pages::reports::index))
        .route("/worlds/{w}/nations", web::get().to(pages::nations::index))
        .route("/messages", web::get().to(pages::messages::newest))
        .route(
            "/worlds/{w}/messages",
            web::get().to(pages::messages::index),
        )
        .route(
            "/worlds/{w}/messages",
            web::post().to(pages::messages::send),
        )
        .route(
            "/worlds/{w}/messages/{id}/report",
            web::post().to(pages::messages::report),
        )
        .route("/worlds/{w}/blocks", web::post().to(pages::messages::block))
        .route(
            "/worlds/{w}/markers",
            web::post().to(pages::messages::drop_marker),
        )
        .route(
            "/worlds/{w}/markers/{id}/delete",
            web::post().to(pages::messages::remove_marker),
        )
        .route(
            "/worlds/{w}/standings",
            web::get().to(pages::standings::show),
        )
        .route(
            "/worlds/{w}/regiments",
            web::post().to(pages::orders::create_regiment),
        )
        .route(
            "/worlds/{w}/leave",
            web::post().to(pages::orders::take_leave),
        )
        .route(
            "/worlds/{w}/regiments/{r}/join",
            web::post().to(pages::orders::join_regiment),
        )
        .route(
            "/worlds/{w}/regiments/{r}/headquarters",
            web::post().to(pages::orders::set_headquarters),
        )
        .route("/gm/worlds", web::get().to(pages::gm::worlds_page))
        .service(
            web::resource("/gm/worlds")
                .guard(guard::Post())
                .app_data(api::form_config_up_to(api::MAP_BODY_LIMIT))
                .app_data(web::PayloadConfig::new(api::MAP_BODY_LIMIT))
                .route(web::post().to(pages::gm::create_world)),
        )
        .route("/gm/worlds/{w}", web::get().to(pages::gm::editor_page))
        .route("/gm/worlds/{w}/control", web::post().to(pages::gm::control))
        .route(
            "/gm/worlds/{w}/campaign",
            web::post().to(pages::gm::campaign),
        )
        .route("/gm/worlds/{w}/cells", web::post().to(pages::gm::edit_cell))
        .route("/gm/worlds/{w}/edges", web::post().to(pages::gm::edit_edge))
        .route("/gm/worlds/{w}/undo", web::post().to(pages::gm::undo))
        .route("/gm/worlds/{w}/spawn", web::post().to(pages::gm::spawn))
        .route("/gm/worlds/{w}/bots", web::post().to(pages::gm::add_bot))
        .route(
            "/gm/worlds/{w}/bots/remove",
            web::post().to(pages::gm::remove_bot),
        )
        .route("/gm/worlds/{w}/export", web::get().to(pages::gm::export))
        .route("/gm/worlds/{w}/audit", web::get().to(pages::gm::audit_page))
        .route(
            "/gm/worlds/{w}/moderation",
            web::get().to(pages::moderation::index),
        )
        .route(
            "/gm/worlds/{w}/moderation",
            web::post().to(pages::moderation::act),
        )
        .route("/gm/companies/{c}", web::post().to(pages::gm::company))
        .route("/companies/{c}", web::get().to(pages::company::show))
        .route(
            "/companies/{c}/{action}",
            web::post().to(pages::orders::act),
        )
        .service(
            web::scope("/api/v1")
                // Routes are tried in order: the requests of the turn change come first.
                .route("/companies/{c}/{action}", web::post().to(api::play::act))
                .route("/companies/{c}", web::get().to(api::play::company))
                .route("/companies/{c}/options", web::get().to(api::play::options))
                .route(
                    "/companies/{c}/screen",
                    web::get().to(api::screens::company_screen),
                )
                .route(
                    "/worlds/{w}/screen",
                    web::get().to(api::screens::world_screen),
                )
                .route("/worlds/{w}/map", web::get().to(api::play::map))
                .route("/users", web::post().to(api::accounts::register))
                .route("/tokens", web::post().to(api::accounts::create_token))
                .route("/tokens", web::get().to(api::accounts::list_tokens))
                .route(
                    "/tokens/{id}",
                    web::delete().to(api::accounts::revoke_token),
                )
                .route("/webhooks", web::post().to(api::push::add_webhook))
                .route("/webhooks", web::get().to(api::push::list_webhooks))
                .route(
                    "/webhooks/{id}",
                    web::delete().to(api::push::remove_webhook),
                )
                .route("/push/key", web::get().to(api::push::push_key))
                .route("/push/subscriptions", web::post().to(api::push::subscribe))
                .route(
                    "/push/subscriptions",
                    web::get().to(api::push::list_subscriptions),
                )
                .route(
                    "/push/subscriptions/{id}",
                    web::delete().to(api::push::unsubscribe),
                )
                .route("/push/settings", web::get().to(api::push::settings))
                .route("/push/settings", web::put().to(api::push::set_settings))
                .route("/openapi.json", web::get().to(api::description))
                .route("/me", web::get().to(api::accounts::me))
                .route("/alerts", web::get().to(api::accounts::alerts))
                .route("/worlds", web::get().to(api::worlds::list))
                .service(
                    web::resource("/worlds")
                        .guard(guard::Post())
                        .app_data(web::PayloadConfig::new(api::MAP_BODY_LIMIT))
                        .route(web::post().to(api::editor::create_world)),
                )
                .route(
                    "/worlds/generate",
                    web::post().to(api::editor::generate_world),
                )
                .service(
                    web::resource("/worlds/import-tiled")
                        .guard(guard::Post())
                        .app_data(web::PayloadConfig::new(api::MAP_BODY_LIMIT))
                        .route(web::post().to(api::editor::import_tiled)),
                )
                .route("/worlds/{w}/export", web::get().to(api::editor::export))
                .route("/worlds/{w}/audit", web::get().to(api::editor::audit_log))
                .service(
                    web::resource("/worlds/{w}/cells")
                        .guard(guard::Put())
                        .app_data(api::json_config_up_to(api::MAP_BODY_LIMIT))
                        .route(web::put().to(api::editor::put_cells)),
                )
                .route(
                    "/worlds/{w}/cells/{x}/{y}",
                    web::put().to(api::editor::put_cell),
                )
                .route(
                    "/worlds/{w}/edges/{x}/{y}/{side}",
                    web::put().to(api::editor::put_edge),
                )
                .route("/worlds/{w}/undo", web::post().to(api::editor::undo))
                .route(
                    "/worlds/{w}/nations/{n}/spawn",
                    web::put().to(api::editor::spawn),
                )
                .route(
                    "/companies/{c}",
                    web::patch().to(api::editor::patch_company),
                )
                .route(
                    "/companies/{c}",
                    web::delete().to(api::editor::delete_company),
                )
                .route("/worlds/{w}", web::get().to(api::worlds::show))
                .route(
                    "/worlds/{w}/dice/{turn}",
                    web::get().to(api::worlds::dice_seed),
                )
                .route("/worlds/{w}", web::patch().to(api::gm::patch_world))
                .route("/worlds/{w}/ticks", web::post().to(api::gm::tick))
                .route("/worlds/{w}/bots", web::post().to(api::gm::add_bot))
                .route("/worlds/{w}/bots", web::get().to(api::gm::list_bots))
                .route(
                    "/worlds/{w}/bots/{name}",
                    web::delete().to(api::gm::remove_bot),
                )
                .route("/worlds/{w}/end", web::post().to(api::campaign::end))
                .route("/worlds/{w}/next", web::post().to(api::campaign::next))
                .route("/worlds/{w}/castles", web::get().to(api::campaign::castles))
                .route(
                    "/worlds/{w}/rankings",
                    web::get().to(api::campaign::rankings),
                )
                .route(
                    "/worlds/{w}/standings",
                    web::get().to(api::campaign::standings),
                )
                .route("/worlds/{w}/history", web::get().to(api::campaign::history))
                .route("/worlds/{w}/messages", web::post().to(api::talk::send))
                .route("/worlds/{w}/messages", web::get().to(api::talk::list))
                .route("/messages/{id}/report", web::post().to(api::talk::report))
                .route("/messages/{id}", web::delete().to(api::talk::remove))
                .route(
                    "/worlds/{w}/message-reports",
                    web::get().to(api::talk::reports),
                )
                .route(
                    "/worlds/{w}/message-reports/{id}",
                    web::delete().to(api::talk::dismiss),
                )
                .route("/worlds/{w}/mutes", web::post().to(api::talk::mute))
                .route("/worlds/{w}/blocks", web::post().to(api::talk::block))
                .route("/worlds/{w}/blocks", web::get().to(api::talk::blocks))
                .route(
                    "/worlds/{w}/blocks/{player}",
                    web::delete().to(api::talk::unblock),
                )
                .route(
                    "/worlds/{w}/markers",
                    web::post().to(api::talk::drop_marker),
                )
                .route(
                    "/worlds/{w}/markers",
                    web::get().to(api::talk::list_markers),
                )
                .route("/markers/{id}", web::delete().to(api::talk::remove_marker))
                .route("/worlds/{w}/join", web::post().to(api::play::join))
                .route("/worlds/{w}/companies", web::post().to(api::play::raise))
                .route("/worlds/{w}/events", web::get().to(api::play::events))
                .route("/worlds/{w}/live", web::get().to(api::live::stream))
                .route("/worlds/{w}/nations", web::get().to(api::play::nations))
                .route(
                    "/worlds/{w}/regiments",
                    web::post().to(api::play::create_regiment),
                )
                .route("/worlds/{w}/leave", web::post().to(api::play::take_leave))
                .route(
                    "/worlds/{w}/regiments/{r}/join",
                    web::post().to(api::play::join_regiment),
                )
                .route(
                    "/worlds/{w}/regiments/{r}/headquarters",
                    web::put().to(api::play::set_headquarters),
                )
                .default_service(web::to(api::not_found)),
        )
        .default_service(web::to(pages::not_found));
}
