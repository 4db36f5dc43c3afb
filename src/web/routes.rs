//! Every route of the site and the API, in one place.

use super::{api, assets, pages};
use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(api::json_config())
        .app_data(api::path_config())
        .app_data(api::query_config())
        .route("/healthz", web::get().to(pages::health::healthz))
        .route("/static/{file}", web::get().to(assets::serve))
        .route("/", web::get().to(pages::home::index))
        .route("/worlds/{w}", web::get().to(pages::world::show))
        .service(
            web::scope("/api/v1")
                .route("/worlds", web::get().to(api::worlds::list))
                .route("/worlds/{w}", web::get().to(api::worlds::show))
                .default_service(web::to(api::not_found)),
        )
        .default_service(web::to(pages::not_found));
}
