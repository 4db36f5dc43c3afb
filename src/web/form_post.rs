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
    /// The request, for the page a refusal is shown on (its view cookies).
    pub req: HttpRequest,
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
            let back = form.back().and_then(same_site_path).map(str::to_string);
            Ok(SignedPost {
                viewer,
                actor,
                form,
                back,
                req,
            })
        })
    }
}

/// `s` if it is a path of this site to send a browser back to, else None. Only printable
/// ASCII without spaces or backslashes, starting with one slash: browsers drop tabs and line
/// breaks inside URLs and read a backslash as a slash, so "/<tab>/evil.example" or
/// "/<backslash>evil.example" would otherwise leave the site.
pub fn same_site_path(s: &str) -> Option<&str> {
    let printable = s.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    (printable && s.len() <= 500 && s.starts_with('/') && !s.starts_with("//")).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::same_site_path;

    #[test]
    fn only_paths_of_this_site_are_followed() {
        for ok in ["/", "/worlds/1?x=3&y=4&cell=3,4", "/companies/7", "/a%09b"] {
            assert_eq!(same_site_path(ok), Some(ok), "{ok}");
        }
        for bad in [
            "//evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\\evil.example",
            "\\/evil.example",
            "https://evil.example/",
            "evil.example",
            "/ /evil.example",
            "/\u{0}",
            "/é",
            "",
        ] {
            assert_eq!(same_site_path(bad), None, "{bad:?}");
        }
        assert_eq!(same_site_path(&format!("/{}", "a".repeat(600))), None);
    }
}
