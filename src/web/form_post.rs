//! A signed-in form post, extracted once for every form handler: who sends it (refused before
//! the body is read), the form, its CSRF token checked, and where to go back to (a same-site
//! path only).

use super::auth::Viewer;
use super::error::PageError;
use crate::game::play::access::Actor;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use std::future::Future;
use std::pin::Pin;

/// The two fields every signed form carries besides its own.
pub trait SignedFields {
    fn csrf(&self) -> Option<&str>;
    /// The page to return to, as the form sent it.
    fn back(&self) -> Option<&str> {
        None
    }
}

/// `SignedFields` for a form struct with `csrf` (and `back`) fields of type `Option<String>`.
#[macro_export]
macro_rules! signed_fields {
    ($form:ty) => {
        impl $crate::web::form_post::SignedFields for $form {
            fn csrf(&self) -> Option<&str> {
                self.csrf.as_deref()
            }
        }
    };
    ($form:ty, back) => {
        impl $crate::web::form_post::SignedFields for $form {
            fn csrf(&self) -> Option<&str> {
                self.csrf.as_deref()
            }
            fn back(&self) -> Option<&str> {
                self.back.as_deref()
            }
        }
    };
}

pub struct SignedPost<T> {
    pub viewer: Viewer,
    pub actor: Actor,
    pub form: T,
    /// The form's `back`, if it names a page of this site.
    pub back: Option<String>,
}

impl<T> SignedPost<T> {
    /// Where to return after the form: its `back`, else `default`.
    pub fn back_or(&self, default: String) -> String {
        self.back.clone().unwrap_or(default)
    }
}

impl<T: DeserializeOwned + SignedFields + 'static> FromRequest for SignedPost<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<SignedPost<T>, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let viewer = Viewer::from_request(&req, &mut Payload::None).await?;
            let actor = viewer.require().map_err(PageError)?;
            let form = web::Form::<T>::from_request(&req, &mut payload)
                .await?
                .into_inner();
            viewer.check_csrf(form.csrf()).map_err(PageError)?;
            let back = form
                .back()
                .and_then(crate::web::pages::same_site_path)
                .map(str::to_string);
            Ok(SignedPost {
                viewer,
                actor,
                form,
                back,
            })
        })
    }
}
