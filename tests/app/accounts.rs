//! Issue: accounts, sessions and security, through HTTP on both databases.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{Client, TestApp};
use serde_json::json;

both!(registration_refusals_are_clear_and_refill_the_form, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    let r = register(&mut c, "ab", PASSWORD);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("3 to 24 characters"));
    assert!(r.body.contains("value=\"ab\""), "the username is refilled");
    assert!(!r.body.contains(PASSWORD), "never the password");
    let r = register(&mut c, "jean luc", PASSWORD);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("letters, digits"));
    let r = register(&mut c, "ney", "short");
    assert_eq!(r.status, 422);
    assert!(r.body.contains("at least 10 characters"));
    assert_eq!(register(&mut c, "Ney", PASSWORD).status, 303);
    let mut d = app.client();
    let r = register(&mut d, "NEY", PASSWORD);
    assert_eq!(r.status, 409, "usernames are unique regardless of case");
    assert!(r.body.contains("taken"));
    assert_eq!(app.count("SELECT COUNT(*) FROM users"), 1);
    // The API refuses the same way, in JSON.
    let r = d.post_json(
        "/api/v1/users",
        json!({"username": "x", "password": PASSWORD}),
    );
    assert_eq!((r.status, r.code().as_str()), (422, "invalid"));
    let r = d.post_json(
        "/api/v1/users",
        json!({"username": "ney", "password": PASSWORD}),
    );
    assert_eq!((r.status, r.code().as_str()), (409, "conflict"));
    let r = d.post_raw("/api/v1/users", "application/json", "{not json");
    assert_eq!((r.status, r.code().as_str()), (422, "invalid"));
});

both!(a_script_username_is_refused_and_echoed_escaped, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    let evil = "<script>alert(1)</script>";
    let r = register(&mut c, evil, PASSWORD);
    assert_eq!(r.status, 422);
    assert!(!r.body.contains(evil));
    assert!(r
        .body
        .contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"));
    assert_eq!(app.count("SELECT COUNT(*) FROM users"), 0);
});

both!(
    login_sets_a_safe_cookie_with_a_new_session_id_each_time,
    |b| {
        let app = TestApp::spawn(b);
        let mut c = player(&app, "murat");
        let first = c.cookies["grognard_session"].clone();
        let r = login(&mut c, "murat", PASSWORD);
        assert_eq!(r.status, 303);
        let cookie = r
            .set_cookies()
            .into_iter()
            .find(|s| s.starts_with("grognard_session="))
            .unwrap()
            .to_string();
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert!(cookie.contains("SameSite=Lax"), "{cookie}");
        assert!(cookie.contains("Path=/"), "{cookie}");
        assert!(
            !cookie.contains("Secure"),
            "plain HTTP in this config: {cookie}"
        );
        let second = c.cookies["grognard_session"].clone();
        assert_ne!(first, second, "a new session id at login");
        assert_eq!(
            app.count("SELECT COUNT(*) FROM sessions"),
            1,
            "the old session is gone"
        );
        // The database holds only a hash of the cookie value.
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM sessions WHERE id = '{second}'"
            )),
            0
        );
        let home = c.get("/");
        assert!(home.body.contains("murat") && home.body.contains("Log out"));
    }
);

both!(over_https_cookies_are_secure_with_the_host_prefix, |b| {
    let app = TestApp::spawn_with(b, |s| s.server.https = true, true);
    let mut c = app.client();
    let r = register(&mut c, "davout", PASSWORD);
    assert_eq!(r.status, 303);
    let cookie = r
        .set_cookies()
        .into_iter()
        .find(|s| s.starts_with("__Host-grognard_session="))
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("Secure") && cookie.contains("HttpOnly") && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(!cookie.contains("Domain"), "{cookie}");
});

both!(logout_kills_the_session, |b| {
    let app = TestApp::spawn(b);
    let mut c = player(&app, "lannes");
    let stolen = c.clone();
    let csrf = c.get("/account").csrf();
    let r = c.post_form("/logout", &[("csrf", &csrf)]);
    assert_eq!(r.status, 303);
    assert_eq!(app.count("SELECT COUNT(*) FROM sessions"), 0);
    // The old cookie replayed no longer works.
    let mut replay = stolen;
    assert_eq!(replay.get("/account").status, 303);
    assert_eq!(replay.get("/account").header("location"), Some("/login"));
});

both!(sessions_expire_when_idle_and_at_the_absolute_limit, |b| {
    let app = TestApp::spawn(b);
    let mut c = player(&app, "soult");
    assert_eq!(c.get("/account").status, 200);
    app.exec("UPDATE sessions SET last_seen_at = last_seen_at - 4321 * 60");
    assert_eq!(
        c.get("/account").status,
        303,
        "idle for longer than 4320 minutes"
    );
    let mut c = player(&app, "soult2");
    app.exec("UPDATE sessions SET created_at = created_at - 721 * 3600");
    assert_eq!(c.get("/account").status, 303, "older than 720 hours");
});

both!(csrf_missing_or_wrong_is_403_and_changes_nothing, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    c.get("/register");
    let r = c.post_form(
        "/register",
        &[("username", "berthier"), ("password", PASSWORD)],
    );
    assert_eq!(r.status, 403);
    let r = c.post_form(
        "/register",
        &[
            ("csrf", "0123"),
            ("username", "berthier"),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(r.status, 403);
    assert_eq!(app.count("SELECT COUNT(*) FROM users"), 0);
    let mut p = player(&app, "bessieres");
    let r = p.post_form("/account/tokens", &[("name", "x")]);
    assert_eq!(r.status, 403);
    let r = p.post_form(
        "/account/tokens",
        &[("csrf", &"f".repeat(48)), ("name", "x")],
    );
    assert_eq!(r.status, 403);
    let r = p.post_form("/logout", &[]);
    assert_eq!(r.status, 403);
    assert_eq!(app.count("SELECT COUNT(*) FROM api_tokens"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM sessions"), 1);
});

both!(failed_logins_are_throttled_per_account_and_reset, |b| {
    let app = TestApp::spawn(b);
    player(&app, "junot");
    let mut c = app.client();
    for _ in 0..5 {
        let r = login(&mut c, "junot", "wrong password!");
        assert_eq!(r.status, 401);
        assert!(r.body.contains("wrong username or password"));
    }
    let r = login(&mut c, "junot", PASSWORD);
    assert_eq!(r.status, 429, "even the right password waits");
    let retry: i64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // The API shares the limit.
    let r = c.post_json(
        "/api/v1/tokens",
        json!({"username": "junot", "password": PASSWORD}),
    );
    assert_eq!((r.status, r.code().as_str()), (429, "rate_limited"));
    assert!(r.header("retry-after").is_some());
    // A minute later the window has passed.
    app.exec("UPDATE login_failures SET at = at - 61");
    assert_eq!(login(&mut c, "junot", PASSWORD).status, 303);
});

both!(failed_logins_are_throttled_per_client_address, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    for i in 0..5 {
        let r = c.post_json(
            "/api/v1/tokens",
            json!({"username": format!("nobody{i}"), "password": "wrong password!"}),
        );
        assert_eq!(r.status, 401);
    }
    let r = c.post_json(
        "/api/v1/tokens",
        json!({"username": "someone", "password": "wrong password!"}),
    );
    assert_eq!(r.status, 429, "the address is throttled across accounts");
});

both!(tokens_are_shown_once_work_and_stop_at_revocation, |b| {
    let app = TestApp::spawn(b);
    let mut c = player(&app, "marmont");
    let csrf = c.get("/account").csrf();
    let r = c.post_form("/account/tokens", &[("csrf", &csrf), ("name", "scripts")]);
    assert_eq!(r.status, 200);
    let at = r.body.find("id=\"new-token\">").unwrap() + 15;
    let token = r.body[at..at + r.body[at..].find('<').unwrap()].to_string();
    assert!(token.starts_with("grg_"));
    assert!(!c.get("/account").body.contains(&token), "shown once only");
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM api_tokens WHERE token_hash = '{token}'"
        )),
        0,
        "stored hashed"
    );
    let mut api = app.client();
    assert_eq!(api.get_json("/api/v1/me").status, 401);
    api.bearer = Some(token.clone());
    let me = api.get_json("/api/v1/me");
    assert_eq!(me.status, 200);
    assert_eq!(me.json()["username"], "marmont");
    let list = api.get_json("/api/v1/tokens").json();
    let id = list["tokens"][0]["id"].as_i64().unwrap();
    let r = c.post_form(&format!("/account/tokens/{id}/revoke"), &[("csrf", &csrf)]);
    assert_eq!(r.status, 303);
    let r = api.get_json("/api/v1/me");
    assert_eq!((r.status, r.code().as_str()), (401, "unauthorized"));
    // Tokens made through the API are revoked through it too; others' tokens are not found.
    let mut other = api_player(&app, "augereau");
    let mine = other.get_json("/api/v1/tokens").json()["tokens"][0]["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        api.json("DELETE", &format!("/api/v1/tokens/{mine}"), None)
            .status,
        401
    );
    let mut third = api_player(&app, "victor");
    assert_eq!(
        third
            .json("DELETE", &format!("/api/v1/tokens/{mine}"), None)
            .status,
        404
    );
    assert_eq!(
        other
            .json("DELETE", &format!("/api/v1/tokens/{mine}"), None)
            .status,
        204
    );
    assert_eq!(other.get_json("/api/v1/me").status, 401);
});

both!(ban_and_role_change_take_effect_on_the_next_request, |b| {
    use grognard::game::accounts::Role;
    let app = TestApp::spawn(b);
    let mut admin = user_with_role(&app, "napoleon", Role::Admin);
    let mut p = player(&app, "bernadotte");
    let mut p_api = app.client();
    let t = p_api.post_json(
        "/api/v1/tokens",
        json!({"username": "bernadotte", "password": PASSWORD}),
    );
    p_api.bearer = Some(t.json()["token"].as_str().unwrap().to_string());
    assert_eq!(
        p.get("/admin/users").status,
        403,
        "players are refused admin pages"
    );
    let page = admin.get("/admin/users");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("bernadotte"));
    let csrf = page.csrf();
    let id = app.count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'bernadotte'");
    // Promote to GM: still no admin pages, but the role shows.
    let r = admin.post_form(
        &format!("/admin/users/{id}"),
        &[("csrf", &csrf), ("role", "gm"), ("banned", "no")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(p_api.get_json("/api/v1/me").json()["role"], "gm");
    assert_eq!(p.get("/admin/users").status, 403);
    // Ban: the session and the token stop at once.
    let r = admin.post_form(
        &format!("/admin/users/{id}"),
        &[("csrf", &csrf), ("banned", "yes")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(p.get("/account").status, 303);
    assert_eq!(p_api.get_json("/api/v1/me").status, 401);
    let mut again = app.client();
    let r = login(&mut again, "bernadotte", PASSWORD);
    assert_eq!(r.status, 403);
    assert!(r.body.contains("banned"));
    assert_eq!(
        app.count("SELECT COUNT(*) FROM gm_audit WHERE action = 'user'"),
        2
    );
    // Bad values are refused without change.
    let r = admin.post_form(
        &format!("/admin/users/{id}"),
        &[("csrf", &csrf), ("role", "emperor")],
    );
    assert_eq!(r.status, 422);
    let r = admin.post_form("/admin/users/9999", &[("csrf", &csrf), ("role", "gm")]);
    assert_eq!(r.status, 404);
});

both!(pages_and_api_send_security_headers, |b| {
    let app = TestApp::spawn(b);
    let mut c = app.client();
    for path in ["/", "/login", "/api/v1/worlds", "/no-such-page"] {
        let r = c.get(path);
        let csp = r
            .header("content-security-policy")
            .unwrap_or_default()
            .to_string();
        assert!(
            csp.contains("frame-ancestors 'none'")
                && csp.contains("script-src 'self'")
                && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert!(r.header("referrer-policy").is_some(), "{path}");
        // Pages are kept privately and checked again (the back button shows them at once);
        // API answers are never stored.
        let cache = if path.starts_with("/api/") {
            "no-store"
        } else {
            "private, no-cache"
        };
        assert_eq!(r.header("cache-control"), Some(cache), "{path}");
        assert_eq!(r.header("strict-transport-security"), None, "{path}");
    }
    // Static files may be cached: for a year under the name the pages link, which changes
    // with the content.
    let css = c.get("/static/style.css");
    assert!(css.header("cache-control").unwrap().starts_with("public"));
    let page = c.get("/").body;
    let linked = page
        .split("href=\"/static/style.")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the style sheet is linked by its hashed name");
    let hashed = c.get(&format!("/static/style.{linked}"));
    assert_eq!(hashed.status, 200);
    assert_eq!(hashed.body, css.body);
    assert_eq!(
        hashed.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    // The account page shows a new token once: never stored.
    let mut p = player(&app, "cautious");
    let account = p.get("/account");
    assert_eq!(account.status, 200);
    assert_eq!(account.header("cache-control"), Some("no-store"));
    // No inline script anywhere in a page.
    let body = c.get("/worlds/1").body;
    assert!(!body.contains("<script>") && !body.contains("onclick="));
    // Over HTTPS, browsers are told to keep to it.
    let secure = TestApp::spawn_with(b, |s| s.server.https = true, true);
    let r = secure.client().get("/");
    assert_eq!(
        r.header("strict-transport-security"),
        Some("max-age=31536000")
    );
});

both!(login_follows_only_paths_of_this_site, |b| {
    let app = TestApp::spawn(b);
    let _ = player(&app, "wanderer");
    for (next, expected) in [
        ("/worlds/1?x=3&y=4", "/worlds/1?x=3&y=4"),
        ("/\t/evil.example", "/"),
        ("/\\evil.example", "/"),
        ("//evil.example", "/"),
        ("https://evil.example/", "/"),
    ] {
        let mut c = app.client();
        let csrf = c.get("/login").csrf();
        let r = c.post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "wanderer"),
                ("password", PASSWORD),
                ("next", next),
            ],
        );
        assert_eq!(r.status, 303, "{next:?}: {}", r.body);
        assert_eq!(r.header("location"), Some(expected), "{next:?}");
    }
});

both!(
    a_player_changes_their_password_and_other_sessions_end,
    |b| {
        let app = TestApp::spawn(b);
        let mut c = player(&app, "soult");
        let mut other = app.client();
        assert_eq!(login(&mut other, "soult", PASSWORD).status, 303);
        let change = |c: &mut Client, current: &str, new: &str| {
            let csrf = c.get("/account").csrf();
            c.post_form(
                "/account/password",
                &[("csrf", &csrf), ("current", current), ("new", new)],
            )
        };
        let r = change(&mut c, "not my password", "a new password 1");
        assert_eq!(r.status, 401);
        assert!(r.body.contains("the current password is not right"));
        let r = change(&mut c, PASSWORD, "short");
        assert_eq!(r.status, 422);
        assert!(r.body.contains("at least 10 characters"), "{}", r.body);
        // Without the form's token, nothing happens.
        let r = c.post_form(
            "/account/password",
            &[("current", PASSWORD), ("new", "a new password 1")],
        );
        assert_eq!(r.status, 403);
        let r = change(&mut c, PASSWORD, "a new password 1");
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(r.header("location"), Some("/account?changed=1"));
        let page = c.get("/account?changed=1");
        assert_eq!(page.status, 200, "this browser keeps a fresh session");
        assert!(page.body.contains("Your password has changed"));
        assert_eq!(other.get("/account").status, 303, "the other session ended");
        let mut fresh = app.client();
        assert_eq!(login(&mut fresh, "soult", PASSWORD).status, 401);
        assert_eq!(login(&mut fresh, "soult", "a new password 1").status, 303);
    }
);
