//! Issue: playing in the browser without JavaScript: the forms of the world, company, reports
//! and nations pages, through HTTP on both databases.

use crate::both;
use crate::support::fixtures::*;
use crate::support::{Backend, Client};
use grognard::game::accounts::Role;

fn form_back(b: Backend) {
    let a = arena(b);
    let w = a.world;
    let mut c = player(&a.app, "bonaparte");
    let id = join_and_raise(&mut c, w, "Blue", "infantry", "<i>Garde</i> & \"co\"");
    // The world page shows the company, escaped, and its AP.
    let page = c.get(&format!("/worlds/{w}?company={id}"));
    assert_eq!(page.status, 200);
    assert!(page
        .body
        .contains("&lt;i&gt;Garde&lt;&#x2F;i&gt; &amp; &quot;co&quot;"));
    assert!(!page.body.contains("<i>Garde</i>"));
    assert!(page
        .body
        .contains(&format!("data-company=\"{id}\">24</span>")));
    // Without JavaScript the map is the image button of the view's form: a click at pixel
    // (50, 30) of a zoom-2 view (22 px cells) whose corner is (0, 0) selects cell (2, 1).
    let page = c.get(&format!("/worlds/{w}?company={id}"));
    assert!(page.body.contains("<form method=\"get\" action=\"/worlds/"));
    assert!(page
        .body
        .contains("<input type=\"image\" class=\"pick\" name=\"at\""));
    assert!(
        !page.body.contains("class=\"cell-link\""),
        "no link per cell"
    );
    let picked = c.get(&format!(
        "/worlds/{w}?x=14&y=9&zoom=2&company={id}&at.x=50&at.y=30"
    ));
    assert!(picked
        .body
        .contains("class=\"cell t-plain selected\" data-x=\"2\" data-y=\"1\""));
    assert!(picked.body.contains("Move here (2 AP)"), "{}", picked.body);
    // A click outside the drawing selects nothing.
    let outside = c.get(&format!(
        "/worlds/{w}?x=14&y=9&zoom=2&company={id}&at.x=5000&at.y=30"
    ));
    assert_eq!(outside.status, 200);
    assert!(!outside.body.contains("Move here ("));
    for odd in ["-22", "2147483647", "-2147483648"] {
        let r = c.get(&format!(
            "/worlds/{w}?x=14&y=9&zoom=2&at.x={odd}&at.y={odd}"
        ));
        assert_eq!(r.status, 200, "{odd}");
        assert!(!r.body.contains("id=\"cell-panel\""), "{odd}");
    }
    // Points that are not numbers are refused with the reason (422), as every bad query.
    for bad in ["abc", "99999999999", "1.5"] {
        let r = c.get(&format!("/worlds/{w}?x=14&y=9&zoom=2&at.x={bad}&at.y=3"));
        assert_eq!(r.status, 422, "{bad}: {}", r.body);
        assert!(r.body.contains("bad query string"));
    }
    // Clicking a cell selects it: the panel tells its cost and offers to move there.
    let page = c.get(&format!("/worlds/{w}?company={id}&cell=2,1"));
    assert!(page
        .body
        .contains("Move cost this season: <strong>1 AP</strong>"));
    assert!(page.body.contains("Move here (2 AP)"));
    let csrf = page.csrf();
    let back = format!("/worlds/{w}?company={id}&cell=2,1");
    let r = c.post_form(
        &format!("/companies/{id}/move"),
        &[("csrf", &csrf), ("back", &back), ("to", "2,1")],
    );
    assert_eq!(r.status, 303);
    let loc = r.header("location").unwrap().to_string();
    assert!(loc.starts_with(&back) && loc.contains("&report="), "{loc}");
    let page = c.get(&loc);
    assert!(
        page.body
            .contains(&format!("data-company=\"{id}\">22</span>")),
        "AP down by 2: {}",
        &page.body[page.body.find("class=\"companies\"").unwrap_or(0)..]
            [..600.min(page.body.len())]
    );
    assert!(page.body.contains("moved to (2, 1) for 2 AP"));
    // A path typed in the form.
    let r = c.post_form(
        &format!("/companies/{id}/move"),
        &[("csrf", &csrf), ("back", &back), ("path", "3,1 4,1;5,1")],
    );
    assert_eq!(r.status, 303);
    let page = c.get(&format!("/companies/{id}"));
    assert!(page.body.contains("<td id=\"ap\">19</td>"));
    // A refused order says why, changes nothing, and links back.
    let r = c.post_form(
        &format!("/companies/{id}/move"),
        &[("csrf", &csrf), ("back", &back), ("path", "9,9")],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("data-code=\"not_adjacent\""));
    assert!(r.body.contains("Nothing was changed"));
    // ... on the world page it came from, the map and the cell's panel still there: the
    // refusal at the top of the panel, not a page of its own.
    assert!(r.body.contains("class=\"map-wrap\""), "the map stays");
    let panel = &r.body[r
        .body
        .find("id=\"cell-panel\"")
        .expect("the cell's panel stays")..];
    assert!(panel.contains("id=\"refused\""));
    assert!(panel.contains("Order refused:"));
    // A stale order (the company has no AP left for it) the same way, with its own reason.
    let stale = c.post_form(
        &format!("/companies/{id}/move"),
        &[("csrf", &csrf), ("back", &back), ("path", "6,1 7,1 8,1 9,1 10,1 11,1 12,1 13,1 14,1 15,1 15,2 15,3 15,4 15,5 15,6 15,7 15,8 15,9 14,9 13,9")],
    );
    assert!(
        stale.status >= 400 && stale.status < 500,
        "{}",
        stale.status
    );
    assert!(stale.body.contains("class=\"map-wrap\"") && stale.body.contains("id=\"refused\""));
    let r = c.post_form(
        &format!("/companies/{id}/move"),
        &[("csrf", &csrf), ("path", "x")],
    );
    assert_eq!(r.status, 422);
    assert!(c
        .get(&format!("/companies/{id}"))
        .body
        .contains("<td id=\"ap\">19</td>"));
    // Without the CSRF token nothing moves.
    let r = c.post_form(&format!("/companies/{id}/move"), &[("to", "6,1")]);
    assert_eq!(r.status, 403);
    // Another player cannot see or order it.
    let mut other = player(&a.app, "wellington");
    assert_eq!(other.get(&format!("/companies/{id}")).status, 404);
    let csrf2 = other.get("/account").csrf();
    assert_eq!(
        other
            .post_form(
                &format!("/companies/{id}/move"),
                &[("csrf", &csrf2), ("to", "6,1")]
            )
            .status,
        404
    );
}

both!(a_player_moves_through_the_pages, |b| {
    form_back(b);
});

both!(
    a_volley_from_the_company_page_reports_dice_and_both_sides,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut c = player(&a.app, "ney");
        let id = join_and_raise(&mut c, w, "Blue", "infantry", "Ligne");
        let mut red = a.red.clone();
        let foe = a.raise(&mut red, "infantry", "Kutuzov's own");
        let far = a.raise(&mut red, "cavalry", "Far Cossacks");
        a.put(id, 5, 5);
        a.put(foe, 7, 5);
        a.put(far, 12, 5);
        let page = c.get(&format!("/companies/{id}"));
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Kutuzov&#x27;s own"));
        assert!(!page.body.contains("Far Cossacks"), "beyond perception");
        let world_page = c.get(&format!("/worlds/{w}?x=8&y=5&zoom=1"));
        assert!(
            world_page.body.contains("Kutuzov&#x27;s own")
                && !world_page.body.contains("Far Cossacks")
        );
        let csrf = page.csrf();
        let r = c.post_form(
            &format!("/companies/{id}/volley"),
            &[("csrf", &csrf), ("target", &foe.to_string())],
        );
        assert_eq!(r.status, 303);
        let page = c.get(r.header("location").unwrap());
        assert!(page.body.contains("fired a volley at"));
        assert!(page.body.contains(">Dice: volley damage"));
        assert!(page.body.contains("(attacker)") && page.body.contains("(defender)"));
        // The reports page lists it for both nations.
        let reports = c.get(&format!("/worlds/{w}/reports"));
        assert!(reports.body.contains("fired a volley at"));
        let mut red_page = player(&a.app, "bagration");
        let csrf = red_page.get(&format!("/worlds/{w}")).csrf();
        red_page.post_form(
            &format!("/worlds/{w}/join"),
            &[("csrf", &csrf), ("nation", "Red")],
        );
        assert!(red_page
            .get(&format!("/worlds/{w}/reports"))
            .body
            .contains("fired a volley at"));
    }
);

both!(nations_page_scoreboard_and_regiments, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = player(&a.app, "berthier");
    join_and_raise(&mut c, w, "Blue", "sappers", "Génie");
    let page = c.get(&format!("/worlds/{w}/nations"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("class=\"data scoreboard\""));
    assert!(page.body.contains("Members: berthier"));
    let csrf = page.csrf();
    let r = c.post_form(
        &format!("/worlds/{w}/regiments"),
        &[("csrf", &csrf), ("name", "1er Régiment")],
    );
    assert_eq!(r.status, 303);
    let page = c.get(&format!("/worlds/{w}/nations"));
    assert!(page.body.contains("1er Régiment") && page.body.contains("(yours)"));
});

both!(the_home_page_tells_a_returning_player_what_happened, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = player(&a.app, "victim");
    let id = join_and_raise(&mut c, w, "Blue", "infantry", "Targets");
    let mut red = a.red.clone();
    let gun = a.raise(&mut red, "artillery", "Batterie");
    a.put(id, 5, 5);
    a.put(gun, 8, 5);
    // The player logs out and in again (the previous login is now the reference).
    let csrf = c.get("/").csrf();
    c.post_form("/logout", &[("csrf", &csrf)]);
    a.exec("UPDATE users SET last_login_at = last_login_at - 100 WHERE username = 'victim'");
    assert_eq!(
        a.act(&mut red, gun, "volley", serde_json::json!({"target": id}))
            .status,
        200
    );
    assert_eq!(
        crate::support::login(&mut c, "victim", crate::support::PASSWORD).status,
        303
    );
    let home = c.get("/");
    assert!(home.body.contains("Since your last visit"));
    assert!(home.body.contains("Batterie fired a volley at Targets"));
    assert!(
        !home.body.contains("victim raised Targets"),
        "not the player's own orders"
    );
});

both!(
    a_newcomer_is_told_what_happened_and_offered_only_what_can_be_done,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut c = a.app.client();
        // Registering greets the new player by name on the worlds page.
        let r = crate::support::register(&mut c, "newcomer", crate::support::PASSWORD);
        assert_eq!(r.header("location"), Some("/?welcome=1"));
        let home = c.get("/?welcome=1");
        assert!(home
            .body
            .contains("Welcome, newcomer: your account is ready."));
        // Joining says whom the player serves and what raising costs.
        let page = c.get(&format!("/worlds/{w}"));
        let csrf = page.csrf();
        c.post_form(
            &format!("/worlds/{w}/join"),
            &[("csrf", &csrf), ("nation", "Blue")],
        );
        let page = c.get(&format!("/worlds/{w}"));
        assert!(page
            .body
            .contains("You serve Blue. Raise your first company below"));
        assert!(page.body.contains("Treasury of Blue: 1000"));
        assert!(page
            .body
            .contains("Raise a company: 100 from the treasury, at full strength"));
        assert!(page.body.contains("Shaded cells are out of sight"));
        let raise = |c: &mut Client, name: &str| {
            c.post_form(
                &format!("/worlds/{w}/companies"),
                &[("csrf", &csrf), ("kind", "infantry"), ("name", name)],
            )
        };
        assert_eq!(raise(&mut c, "Garde").status, 303);
        // A second company of the same name is refused, and says why.
        let again = raise(&mut c, "Garde");
        assert_eq!(again.status, 409, "{}", again.body);
        assert!(again.body.contains("You already command a company called"));
        assert_eq!(
            a.app.count(&format!(
                "SELECT COUNT(*) FROM companies WHERE world_id = {w}"
            )),
            1
        );
        // The company page offers no volley without a target and no reinforcement from an empty
        // reserve, and says why.
        let id = a.app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM companies WHERE world_id = {w}"
        ));
        // On a village of its nation, where reinforcements may join (the rules say where).
        let (x, y) = a.position(id);
        a.paint(x, y, "village", Some("Blue"), None);
        let page = c.get(&format!("/companies/{id}"));
        assert!(page
            .body
            .contains("At full strength: no room for reinforcements."));
        a.set(id, "men = 190");
        let page = c.get(&format!("/companies/{id}"));
        assert!(page
            .body
            .contains("No enemy in sight within range (2 cells) to fire at."));
        assert!(!page
            .body
            .contains(&format!("action=\"/companies/{id}/volley\"")));
        assert!(page
            .body
            .contains("No enemy next to the company to charge."));
        assert!(page
            .body
            .contains("Your reserve is empty: it grows by 15 men each turn"));
        assert!(!page
            .body
            .contains(&format!("action=\"/companies/{id}/reinforce\"")));
        // With an enemy two cells away and men in the reserve, both are offered, within bounds.
        let mut red = a.red.clone();
        let enemy = a.raise(&mut red, "infantry", "Ennemi");
        a.put(enemy, x + 2, y);
        a.exec(&format!(
            "UPDATE players SET reserve = 30 WHERE world_id = {w}"
        ));
        let page = c.get(&format!("/companies/{id}"));
        assert!(page.body.contains("Ennemi (2 away)"), "{}", page.body);
        assert!(page
            .body
            .contains("No enemy next to the company to charge."));
        assert!(
            page.body.contains("max=\"10\" value=\"10\""),
            "room for 10 of the 30 in reserve"
        );
    }
);

both!(leave_is_taken_from_the_world_page_and_shown_there, |b| {
    let a = arena(b);
    let w = a.world;
    let mut c = player(&a.app, "vacances");
    join_and_raise(&mut c, w, "Blue", "infantry", "Garde");
    let page = c.get(&format!("/worlds/{w}"));
    assert!(page.body.contains("Go on leave"));
    let csrf = page.csrf();
    // A bad number of days is refused with the reason, and changes nothing.
    let r = c.post_form(
        &format!("/worlds/{w}/leave"),
        &[("csrf", &csrf), ("days", "30")],
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("A leave lasts 2 to 21 days"), "{}", r.body);
    let r = c.post_form(
        &format!("/worlds/{w}/leave"),
        &[("csrf", &csrf), ("days", "soon")],
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        a.app.count(&format!(
            "SELECT COUNT(*) FROM players WHERE world_id = {w} AND leave_until IS NOT NULL"
        )),
        0
    );
    let r = c.post_form(
        &format!("/worlds/{w}/leave"),
        &[("csrf", &csrf), ("days", "3")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&format!("/worlds/{w}"));
    assert!(page.body.contains("On leave until"), "{}", page.body);
    assert!(!page.body.contains("Go on leave</button>"));
    assert!(page.body.contains("class=\"unit mine selected leave\""));
});

both!(
    the_pages_speak_french_or_english_as_the_player_chooses,
    |b| {
        let a = arena(b);
        let w = a.world;
        let mut c = a.app.client();
        let fr = [("Accept-Language", "fr-FR,fr;q=0.9,en;q=0.5")];
        // The browser's language first.
        let page = c.get_with(&format!("/worlds/{w}"), &fr);
        assert!(page.body.contains("<html lang=\"fr\">"));
        assert!(
            page.body.contains(&format!(
                "Connectez-vous</a> ou <a href=\"/register?next=/worlds/{w}"
            )),
            "{}",
            page.body
        );
        assert!(page
            .body
            .contains("Légende : les marques de la carte et ses terrains"));
        assert!(
            page.body.contains("forêt"),
            "terrain names from the French file"
        );
        // The words the script counts down to the next turn with.
        assert!(
            page.body.contains(
                "data-hours=\"dans {h} h {m} min {s} s\" data-minutes=\"dans {m} min {s} s\""
            ),
            "{}",
            page.body
        );
        let page = c.get(&format!("/worlds/{w}"));
        assert!(page.body.contains("<html lang=\"en\">"));
        assert!(page.body.contains("to play."));
        // A choice on this browser wins over the browser's language, and goes back where it was.
        let back = format!("{}/worlds/{w}?zoom=2", a.app.base);
        let r = c.get_with("/lang/en", &[("Referer", &back)]);
        assert_eq!(r.status, 303);
        assert_eq!(r.header("location"), Some(&*format!("/worlds/{w}?zoom=2")));
        assert!(c
            .get_with(&format!("/worlds/{w}"), &fr)
            .body
            .contains("<html lang=\"en\">"));
        // A referrer from elsewhere is not followed.
        let r = c.get_with("/lang/fr", &[("Referer", "https://evil.example/worlds/1")]);
        assert_eq!(r.header("location"), Some("/"));
        assert_eq!(c.get("/lang/de").status, 404);
        // A signed-in player's choice is kept on the account: another browser follows it.
        let mut p = crate::support::player(&a.app, "francophone");
        p.get("/lang/fr");
        assert_eq!(
            a.app
                .count("SELECT COUNT(*) FROM users WHERE username = 'francophone' AND lang = 'fr'"),
            1
        );
        let mut other = a.app.client();
        let r = crate::support::login(&mut other, "francophone", crate::support::PASSWORD);
        assert_eq!(r.status, 303);
        let page = other.get(&format!("/worlds/{w}"));
        assert!(page.body.contains("Rejoindre ce monde"), "{}", page.body);
        assert!(page.body.contains(">Alertes<"));
        // A refusal reads in French too, with its code unchanged.
        join_and_raise(&mut other, w, "Blue", "infantry", "Garde");
        let csrf = other.get(&format!("/worlds/{w}")).csrf();
        let r = other.post_form(
            &format!("/worlds/{w}/leave"),
            &[("csrf", &csrf), ("days", "30")],
        );
        assert_eq!(r.status, 422);
        assert!(r.body.contains("Ordre refusé"), "{}", r.body);
        assert!(
            r.body
                .contains("data-code=\"leave_length\"><strong>Ordre refusé :</strong> Une permission dure de 2 à 21 jours."),
            "{}",
            r.body
        );
    }
);

both!(errors_and_the_game_master_s_pages_speak_french_too, |b| {
    let a = arena(b);
    let w = a.world;
    // A visitor who chose French: form errors and error pages in French.
    let mut c = a.app.client();
    c.get("/lang/fr");
    let r = crate::support::register(&mut c, "court", "short");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body
            .contains("un mot de passe compte au moins 10 caractères"),
        "{}",
        r.body
    );
    let r = c.get("/no/such/page");
    assert_eq!(r.status, 404);
    assert!(r.body.contains("<html lang=\"fr\">"), "{}", r.body);
    assert!(r.body.contains("Erreur 404"));
    assert!(r.body.contains("il n&#x27;y a pas de page à cette adresse"));
    assert!(r.body.contains("Retour aux mondes"));
    // The browser's language alone is enough; in English the page is as it was.
    let mut other = a.app.client();
    let r = other.get_with("/worlds/999999", &[("Accept-Language", "fr")]);
    assert_eq!(r.status, 404);
    assert!(r.body.contains("ce monde n&#x27;existe pas"), "{}", r.body);
    let r = other.get("/worlds/999999");
    assert!(r.body.contains("404 Not Found"));
    assert!(r.body.contains("no such world"));
    // A form sent without its token: refused in French.
    let mut p = player(&a.app, "francais");
    p.get("/lang/fr");
    let r = p.post_form("/account/alerts", &[("email", "x@example.org")]);
    assert_eq!(r.status, 403);
    assert!(r.body.contains("ce formulaire a expiré"), "{}", r.body);
    // The game master's pages.
    let mut gm = crate::support::user_with_role(&a.app, "maitre", Role::Gm);
    gm.get("/lang/fr");
    let list = gm.get("/gm/worlds");
    assert!(list.body.contains("Un monde généré"), "{}", list.body);
    let page = gm.get(&format!("/gm/worlds/{w}"));
    assert_eq!(page.status, 200);
    for said in [
        "Journal des modifications",
        "Modifier une case",
        "Compagnies en vue",
        "Jouer un tour maintenant",
        "data-saved=\"cases enregistrées :\"",
        "> forêt</button>",
    ] {
        assert!(page.body.contains(said), "{said}: {}", page.body);
    }
    let r = gm.post_form(
        &format!("/gm/worlds/{w}/cells"),
        &[
            ("csrf", &page.csrf()),
            ("x", "4"),
            ("y", "3"),
            ("terrain", "lava"),
        ],
    );
    assert_eq!(r.status, 422);
    assert!(
        r.body.contains("Case (4, 3) : terrain « lava » inconnu"),
        "{}",
        r.body
    );
    // The API keeps its codes; its messages follow the language a request asks for.
    let mut api = a.blue.clone();
    let r = api.get_with("/api/v1/companies/999999", &[("Accept-Language", "fr")]);
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"]["code"], "not_found");
    let message = r.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.ends_with("n'existe pas"), "{message}");
    let r = api.get("/api/v1/companies/999999");
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("no such"));
    let audit = gm.get(&format!("/gm/worlds/{w}/audit"));
    assert!(audit.body.contains("Aucune modification enregistrée."));
    let mut admin = crate::support::user_with_role(&a.app, "chef", Role::Admin);
    admin.get("/lang/fr");
    let users = admin.get("/admin/users");
    assert!(
        users.body.contains(">administrateur</option>"),
        "{}",
        users.body
    );
    assert!(users.body.contains(">non banni</option>"));
});

// A first visit's map is drawn for the room the page gives it, from the viewport the browser
// tells when asked (`Accept-CH`): a wide window's column, a phone's nearest zoom.
both!(
    a_first_visit_s_map_fits_the_viewport_the_browser_tells,
    |b| {
        let app = crate::support::TestApp::spawn(b);
        let mut c = player(&app, "premier");
        join_and_raise(&mut c, 1, "France", "infantry", "1er Voltigeurs");
        let page = c.get("/worlds/1");
        assert_eq!(
            page.header("accept-ch"),
            Some("Sec-CH-Viewport-Width, Sec-CH-Viewport-Height")
        );
        let size = |c: &mut Client, headers: &[(&str, &str)]| {
            let l = page_layout(&c.get_with("/worlds/1?zoom=3", headers).body);
            (
                l["cols"].as_i64().unwrap(),
                l["rows"].as_i64().unwrap(),
                l["cell"].as_i64().unwrap(),
            )
        };
        // Told nothing: the default window of the zoom.
        assert_eq!(size(&mut c, &[]), (18, 12, 40));
        // 1280×900: a column of 1280 − 17 (the scroll bar) − 32 − 16 − 340 = 875 px, 860 of
        // them for 21 cells of 40; 900 − 160 − 24 = 716 px high, 700 of them for 17 rows.
        let wide = [
            ("Sec-CH-Viewport-Width", "1280"),
            ("Sec-CH-Viewport-Height", "900"),
        ];
        assert_eq!(size(&mut c, &wide), (21, 17, 40));
        // 390 px wide: a phone's window, as tall as it is wide, and the nearest zoom unasked.
        let phone = [
            ("Sec-CH-Viewport-Width", "390"),
            ("Sec-CH-Viewport-Height", "844"),
        ];
        assert_eq!(size(&mut c, &phone), (18, 18, 40));
        let l = page_layout(&c.get_with("/worlds/1", &phone).body);
        assert_eq!(l["cell"], 40);
        // Nonsense is no size: the default.
        let odd = [
            ("Sec-CH-Viewport-Width", "-5"),
            ("Sec-CH-Viewport-Height", "99999999999"),
        ];
        assert_eq!(size(&mut c, &odd), (18, 12, 40));
        // What the page's script measured, once it has, wins over what the browser tells.
        c.cookies
            .insert(grognard::web::pages::world::SPACE.into(), "1000x600".into());
        assert_eq!(size(&mut c, &wide), (25, 15, 40));
    }
);

/// A world page, with its style sheet and script, weighs under 60 KB as sent: on a phone the
/// view it opens on (the nearest zoom) and the widest one; on the biggest desktop window the
/// grown map at the default zoom and the widest.
fn page_weight(b: Backend, cookie: (&str, &str), views: &[(&str, i32)]) {
    use crate::support::client::gunzip;
    let app = crate::support::TestApp::spawn(b);
    let mut c = player(&app, "voltigeur");
    join_and_raise(&mut c, 1, "France", "infantry", "1er Voltigeurs");
    c.cookies.insert(cookie.0.into(), cookie.1.into());
    let gzip = [("Accept-Encoding", "gzip, deflate, br")];
    for &(view, cell_px) in views {
        let (r, page) = c.get_bytes(view, &gzip);
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-encoding"), Some("gzip"));
        let html = String::from_utf8(gunzip(&page)).unwrap();
        assert!(html.contains(&format!("data-cell=\"{cell_px}\"")), "{view}");
        assert!(
            html.contains("data-company="),
            "{view}: the company is drawn"
        );
        // Everything the page loads from the server.
        let assets: Vec<&str> = html
            .split(['"', '\''])
            .filter(|s| s.starts_with("/static/"))
            .collect();
        assert!(assets.iter().any(|a| a.ends_with(".css")), "{assets:?}");
        assert!(assets.iter().any(|a| a.ends_with(".js")), "{assets:?}");
        let mut total = page.len();
        for asset in &assets {
            let (r, body) = c.get_bytes(asset, &gzip);
            assert_eq!(r.status, 200, "{asset}");
            total += body.len();
        }
        assert!(
            total < 60 * 1024,
            "{view}: {total} bytes ({} of them the page, {} raw)",
            page.len(),
            html.len()
        );
    }
}

both!(a_phone_s_world_page_weighs_under_60_kb_compressed, |b| {
    page_weight(
        b,
        (grognard::web::pages::world::NARROW, "1"),
        &[("/worlds/1", 40), ("/worlds/1?zoom=1", 14)],
    );
});

both!(
    the_biggest_desktop_world_page_weighs_under_60_kb_compressed,
    |b| {
        page_weight(
            b,
            (grognard::web::pages::world::SPACE, "10000x10000"),
            &[("/worlds/1", 22), ("/worlds/1?zoom=1", 14)],
        );
    }
);

both!(
    an_attack_is_reported_beside_the_map_and_drawn_where_it_struck,
    |b| {
        let a = arena(b);
        let w = a.world;
        let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
        assert_eq!(login(&mut blue, "blue_player", PASSWORD).status, 303);
        let me = a.raise(&mut blue, "infantry", "Moi");
        let foe = a.raise(&mut red, "infantry", "Voisin");
        a.put(me, 5, 5);
        a.put(foe, 6, 5);
        let back = format!("/worlds/{w}?company={me}&cell=6,5");
        let csrf = blue.get(&back).csrf();
        let r = blue.post_form(
            &format!("/companies/{me}/volley"),
            &[
                ("csrf", &csrf),
                ("back", &back),
                ("target", &foe.to_string()),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let page = blue.get(r.header("location").unwrap());
        let losses = 200
            - a.app.count(&format!(
                "SELECT CAST(men AS BIGINT) AS n FROM companies WHERE id = {foe}"
            ));
        assert!(losses > 0);
        // The report opens at the top of the cell's panel (the sheet on a phone), its figures
        // folded under one line.
        let panel = &page.body[page.body.find("id=\"cell-panel\"").unwrap()..];
        let panel = &panel[..panel
            .find("</section>\n  </section>")
            .unwrap_or(panel.len())];
        let report = panel
            .find("id=\"last-report\"")
            .expect("the report in the panel");
        assert!(report < panel.find("id=\"volley-here\"").unwrap_or(usize::MAX));
        assert!(panel
            .contains("<details class=\"report-details\"><summary>How it was fought</summary>"));
        assert_eq!(page.body.matches("id=\"last-report\"").count(), 1);
        // The dice say what they rolled; where they came from is kept out of the text.
        assert!(!page.body.contains(" @ "));
        // The map: a ring on each side, the losses over the target's cell.
        let hit = &page.body[page.body.find("<g class=\"hit\"").expect("the hit drawn")..];
        let hit = &hit[..hit.find("</g>").unwrap()];
        assert!(hit.contains("class=\"hit-from\"") && hit.contains("class=\"hit-at\""));
        assert!(hit.contains(&format!(">−{losses}</text>")), "{hit}");
        // Drawn above the companies, under nothing that takes clicks.
        assert!(
            page.body.find("<g class=\"hit\"").unwrap()
                > page.body.find(&format!("data-company=\"{foe}\"")).unwrap()
        );
        // A page without a report draws none.
        assert!(!blue.get(&back).body.contains("<g class=\"hit\""));
    }
);

both!(a_returning_player_finds_their_worlds_first, |b| {
    let a = arena(b);
    let w = a.world;
    let (mut blue, mut red) = (a.blue.clone(), a.red.clone());
    let me = a.raise(&mut blue, "infantry", "Ligne");
    a.put(me, 3, 4);
    let r = a.say(&mut red, "blue_player", "Parley?");
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(login(&mut blue, "blue_player", PASSWORD).status, 303);
    let home = blue.get("/");
    let yours = &home.body[home
        .body
        .find("id=\"your-worlds\"")
        .expect("the player's worlds")..];
    let everyone = home.body.find("class=\"worlds\"").unwrap();
    assert!(
        home.body.find("id=\"your-worlds\"").unwrap() < everyone,
        "theirs first"
    );
    let card = &yours[yours.find(&format!("id=\"your-world-{w}\"")).unwrap()..];
    let card = &card[..card.find("</article>").unwrap()];
    assert!(
        card.contains(&format!("<a href=\"/worlds/{w}?company={me}\">Ligne</a>")),
        "{card}"
    );
    assert!(card.contains("infantry · (3, 4) · 200 men"), "{card}");
    assert!(card.contains("1 unread message"), "{card}");
    assert!(card.contains(&format!("href=\"/worlds/{w}/messages\"")));
    assert!(card.contains("Blue"));
    // A visitor sees the worlds only.
    let mut visitor = a.app.client();
    assert!(!visitor.get("/").body.contains("id=\"your-worlds\""));
});

both!(
    an_error_page_names_its_icon_and_the_world_page_has_no_stray_separator,
    |b| {
        let a = arena(b);
        let mut c = a.app.client();
        let r = c.get("/no/such/page");
        assert_eq!(r.status, 404);
        // Without it a browser asks for /favicon.ico, which is not there.
        assert!(r
            .body
            .contains("<link rel=\"icon\" href=\"/static/favicon.svg\""));
        let page = c.get(&format!("/worlds/{}", a.world));
        assert!(page.body.contains("<p class=\"muted world-nav\"><a href="));
        assert!(!page.body.contains("</span></span>\n·"));
    }
);

both!(
    a_refusal_whose_way_back_is_no_world_page_keeps_the_refusal_page,
    |b| {
        // The way back is the player's to write: a world that is not there, or a view it cannot
        // read, gives the refusal page with its 4xx, never a 500, and nothing written.
        let a = arena(b);
        let w = a.world;
        let mut blue = a.blue.clone();
        assert_eq!(login(&mut blue, "blue_player", PASSWORD).status, 303);
        let me = a.raise(&mut blue, "infantry", "Moi");
        let before = a.state();
        let csrf = blue.get(&format!("/worlds/{w}")).csrf();
        for back in [
            "/worlds/999999".to_string(),
            format!("/worlds/{w}?company=abc"),
            format!("/worlds/{w}?zoom=99999&x=-5"),
            "/worlds/1x".to_string(),
        ] {
            let r = blue.post_form(
                &format!("/companies/{me}/move"),
                &[("csrf", &csrf), ("back", &back), ("path", "15,9")],
            );
            assert!(r.status >= 400 && r.status < 500, "{back}: {}", r.status);
            assert!(r.body.contains("Nothing was changed"), "{back}");
        }
        assert_eq!(a.state(), before);
        // A name typed with markup is said back as text.
        let r = blue.get(&format!("/worlds/{w}/messages?with=%3Cb%3Eney%3C%2Fb%3E"));
        assert_eq!(r.status, 404);
        assert!(!r.body.contains("<b>ney</b>"));
        assert!(r.body.contains("&lt;b&gt;ney&lt;&#x2F;b&gt;"));
    }
);
