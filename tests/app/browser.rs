//! Issue: a real browser. Headless Chromium registers, joins, raises a company, moves it by
//! clicking the map, sees its AP drop, opens the company and reads the report; screenshots land in
//! `target/screenshots-<backend>/`.

use crate::both;
use crate::support::fixtures;
use crate::support::live;
use crate::support::webdriver::Browser;
use crate::support::TestApp;
use serde_json::json;

/// Whether the player's (first) company shows on the screen inside the map's box: within the
/// box, within the window, and not under the cell's panel where that is a sheet.
fn company_in_view(br: &Browser) -> bool {
    br.script(
        "var w = document.querySelector('.map-wrap').getBoundingClientRect();\
         var u = document.querySelector('#map g.unit.mine').getBoundingClientRect();\
         var top = Math.max(w.top, 0), bottom = Math.min(w.bottom, window.innerHeight);\
         var sheet = document.getElementById('cell-panel');\
         if (sheet && getComputedStyle(sheet).position === 'fixed') bottom = Math.min(bottom, sheet.getBoundingClientRect().top);\
         return u.left >= w.left && u.right <= w.right && u.top >= top && u.bottom <= bottom;",
    ) == true
}

/// Where the player's company is on the screen.
fn unit_centre(br: &Browser) -> (f64, f64) {
    let at = br.script(
        "var r = document.querySelector('#map g.unit.mine').getBoundingClientRect();\
         return [r.left + r.width / 2, r.top + r.height / 2];",
    );
    (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
}

/// The smallest height of the buttons and links a player taps on the world page.
fn smallest_target(br: &Browser) -> f64 {
    br.script(
        "var m = 1e9; document.querySelectorAll('main.page button, .pan a').forEach(function (e) {\
           var r = e.getBoundingClientRect(); if (r.height > 0) m = Math.min(m, r.height); });\
         return m;",
    )
    .as_f64()
    .unwrap_or(0.0)
}

/// Where cell (x, y) of the map is on the screen: plain cells are not drawn one by one, the
/// map's corner and rows' step (from the layout the page carries) and the cells' shape say
/// where they are, worked out here apart from the page's script.
fn cell_centre(br: &Browser, x: i32, y: i32) -> (f64, f64) {
    cell_point(br, x, y, 0.5, 0.5)
}

/// The point of the box of cell (x, y) at fractions `fx` of its width and `fy` of its height
/// (a hex's box is 4/3 of a row's step high).
fn cell_point(br: &Browser, x: i32, y: i32, fx: f64, fy: f64) -> (f64, f64) {
    let v = br.script(&format!(
        "var m = document.getElementById('map'), r = m.getBoundingClientRect(), c = +m.getAttribute('data-cell'); \
         var l = JSON.parse(document.getElementById('map-layout').textContent); \
         var k = r.width / +m.getAttribute('width'), i = {x} - l.x0, j = {y} - l.y0; \
         if (m.getAttribute('data-grid') === 'hex') {{ var s = l.step; \
           return [r.left + k * (i * c + ({y} & 1 ? c / 2 : 0) + {fx} * c), r.top + k * (j * s + {fy} * s * 4 / 3)]; }} \
         return [r.left + k * (i + {fx}) * c, r.top + k * (j + {fy}) * c];"
    ));
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// A point on the screen inside a fogged cell of the map that is in view (not under the
/// phone's sheet), if any.
fn fogged_point(br: &Browser) -> Option<(f64, f64)> {
    let v = br.script(
        "var w = document.querySelector('.map-wrap').getBoundingClientRect();\
         var c = +document.getElementById('map').getAttribute('data-cell');\
         var bottom = Math.min(w.bottom, window.innerHeight);\
         var sheet = document.getElementById('cell-panel');\
         if (sheet && getComputedStyle(sheet).position === 'fixed') bottom = Math.min(bottom, sheet.getBoundingClientRect().top);\
         var runs = document.querySelectorAll('#map rect.fog-run');\
         for (var i = 0; i < runs.length; i++) { var r = runs[i].getBoundingClientRect();\
           var l = Math.max(r.left, w.left), t = Math.max(r.top, w.top, 0), rr = Math.min(r.right, w.right), b = Math.min(r.bottom, bottom);\
           if (rr - l >= c && b - t >= c / 2) return [l + c / 2, t + (b - t) / 2]; }\
         return null;",
    );
    Some((v.get(0)?.as_f64()?, v.get(1)?.as_f64()?))
}

/// The colour the browser paints the ground of the first cell matching `css` with, filters
/// included: its fill drawn through its computed filter on a canvas.
fn painted(br: &Browser, css: &str) -> [i64; 3] {
    let v = br.script(&format!(
        "var bg = document.querySelector({css:?} + ' .bg'); if (!bg) return null;\
         var cs = getComputedStyle(bg), c = document.createElement('canvas'); c.width = c.height = 1;\
         var g = c.getContext('2d'); g.filter = cs.filter; g.fillStyle = cs.fill; g.fillRect(0, 0, 1, 1);\
         var d = g.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2]];"
    ));
    let d = v
        .as_array()
        .unwrap_or_else(|| panic!("no cell {css} on the map"));
    [0, 1, 2].map(|i| d[i].as_i64().unwrap())
}

/// Where the map's top edge is on the page (not the window): it must not move when a cell is
/// picked, an order is given or a report shows.
fn map_top(br: &Browser) -> f64 {
    br.script(
        "return document.querySelector('.map-wrap').getBoundingClientRect().top + window.scrollY;",
    )
    .as_f64()
    .unwrap()
}

/// The class of the company's mark on the map.
fn unit_class(br: &Browser, company: i64) -> String {
    br.script(&format!(
        "var u = document.querySelector('#map g.unit[data-company=\"{company}\"]'); return u ? u.getAttribute('class') : '';"
    ))
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Whether the first-day checklist shows `step` ticked; `None` once the list is gone.
fn ticked(br: &Browser, step: &str) -> Option<bool> {
    let v = br.script(&format!(
        "var li = document.querySelector('#first-day li[data-step=\"{step}\"]'); return li ? li.classList.contains('done') : null;"
    ));
    v.as_bool()
}

/// Logs a player in through the login form.
fn log_in(br: &Browser, base: &str, name: &str) {
    br.goto(&format!("{base}/login"));
    br.type_into("#username", name);
    br.type_into("#password", fixtures::PASSWORD);
    br.click("form.stack button[type=submit]");
    br.find("form[action='/logout']");
}

fn no_sideways_scroll(br: &Browser) -> bool {
    br.script("return document.documentElement.scrollWidth <= window.innerWidth;") == true
}

/// Register, join, raise, select a cell, move there, read the report: at one window size.
fn a_new_player_walks_through_the_first_day(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    // Before the newcomer: a friend of France at (3, 3), next to the spawn (2, 2), and a
    // Russian at (6, 4), in volley range (2) once the newcomer has moved two cells east.
    let nation = |name: &str| {
        app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = 1 AND name = '{name}'"
        ))
        .to_string()
    };
    let mut ami = fixtures::player(&app, "ami_de_france");
    let friend = fixtures::join_and_raise(&mut ami, 1, &nation("France"), "infantry", "Amis");
    let mut ivan = fixtures::player(&app, "ivan");
    let foe = fixtures::join_and_raise(&mut ivan, 1, &nation("Russia"), "infantry", "Pavlovsky");
    app.exec(&format!(
        "UPDATE companies SET x = 3, y = 3 WHERE id = {friend}"
    ));
    app.exec(&format!(
        "UPDATE companies SET x = 6, y = 4 WHERE id = {foe}"
    ));
    let shots = format!("screenshots-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let base = &app.base;
    br.goto(&format!("{base}/"));
    assert_eq!(
        br.script("return window.innerWidth;"),
        width,
        "the window is {width} px wide"
    );
    let check = |step: &str, company: bool| {
        br.screenshot(step);
        assert!(
            no_sideways_scroll(&br),
            "{step} at {width}: the page scrolls sideways"
        );
        if company {
            assert!(
                company_in_view(&br),
                "{step} at {width}: the company is off the map's box"
            );
        }
    };

    br.goto(&format!("{base}/register"));
    br.type_into("#username", "marie_louise");
    br.type_into("#password", "a long enough password");
    check("01-register", false);
    br.click("form.stack button[type=submit]");
    br.find("form[action='/logout']");

    br.goto(&format!("{base}/worlds/1"));
    br.find("select#nation");
    if width < 500 {
        // A phone's first view turns to the nearest zoom: cells of 40 px.
        br.find("svg#map[data-cell='40']");
    }
    check("02-join", false);
    br.click("form[action='/worlds/1/join'] button");
    br.type_into("#raise-name", "1er Grenadiers");
    br.click("form.raise button");
    let ap_css = "span.ap[data-company]";
    assert_eq!(br.text(ap_css), "24", "a fresh infantry company has 24 AP");
    assert!(br.url().contains("company="), "{}", br.url());
    check("03-raised", true);
    // The friend is drawn as a friend, the checklist has ticked the first two steps.
    let class = unit_class(&br, friend);
    assert!(
        class.contains("friend") && !class.contains("enemy"),
        "a company of the same nation is a friend: {class}"
    );
    assert_eq!(ticked(&br, "join"), Some(true));
    assert_eq!(ticked(&br, "raise"), Some(true));
    assert_eq!(ticked(&br, "move"), Some(false));
    if width >= 500 {
        // The river beyond sight is fogged, and still blue: the fog washes it out, not grey
        // (the phone's first view, nearer, does not reach the river).
        let [r, g, b] = painted(&br, "#map g.cell.fog.t-river");
        assert!(
            b - r >= 80 && b - g >= 40,
            "a fogged river painted ({r}, {g}, {b})"
        );
    }
    let top = map_top(&br);

    // Tapping the friend's cell says why the company cannot go there, and the map stays put.
    br.script("window.grognardMark = 42; return null;");
    let (fx, fy) = cell_centre(&br, 3, 3);
    br.click_at(fx, fy);
    br.find("#cannot-move");
    assert!(
        br.text("#cannot-move").contains("Cannot move here: "),
        "{}",
        br.text("#cannot-move")
    );
    assert!(br.text("#cannot-move").len() > "Cannot move here: ".len() + 3);
    assert_eq!(map_top(&br), top, "selecting a cell does not move the map");
    check("04a-friend-cell", true);

    // France spawns at (2, 2): tap the cell two columns east, then "Move here". The page is
    // updated in place: a mark left on the window survives.
    let (cx, cy) = cell_centre(&br, 4, 2);
    br.click_at(cx, cy);
    br.find("#move-here");
    assert!(br
        .text("#cell-panel")
        .contains("Move cost this season: 1 AP"));
    check("04-cell-selected", true);
    if width < 500 {
        assert!(
            smallest_target(&br) >= 40.0,
            "targets of 40 px on a phone: {}",
            smallest_target(&br)
        );
        // The cell's actions are on the screen, next to the map.
        assert_eq!(
            br.script("var r = document.getElementById('move-here').getBoundingClientRect(); return r.bottom <= window.innerHeight && r.top >= 0;"),
            true,
            "\"Move here\" is on the screen"
        );
    }
    br.click("#move-here");
    br.find("#last-report");
    assert_eq!(br.text(ap_css), "22", "two plain steps cost 2 AP");
    assert!(br.text("#last-report").contains("moved to (4, 2) for 2 AP"));
    assert_eq!(
        br.script("return window.grognardMark || null;"),
        42,
        "selecting and moving did not reload the page"
    );
    assert!(
        br.url().contains("report="),
        "the address follows: {}",
        br.url()
    );
    check("05-moved", true);
    assert_eq!(
        map_top(&br),
        top,
        "an order and its report do not move the map"
    );
    assert_eq!(ticked(&br, "move"), Some(true));

    // The unit stands on the clicked cell now.
    assert!(br.source().contains("data-x=\"4\" data-y=\"2\"><circle"));

    if width >= 500 {
        // A path built by clicking cells with the box ticked: each is marked on the map and
        // added to the path, "Clear" takes them off, and the path is followed. The path by
        // hand is folded away until asked for.
        assert_eq!(
            br.script("return document.querySelector('details.path-by-hand').open;"),
            false
        );
        br.click("details.path-by-hand summary");
        br.click("#path-mode");
        let path_value = || br.script("return document.getElementById('path').value;");
        let marks = || br.script("return document.querySelectorAll('#map .path-mark').length;");
        let click_cells = |cells: &[(i32, i32)]| {
            br.script(
                "document.getElementById('map').scrollIntoView({block: 'center'}); return null;",
            );
            for (x, y) in cells {
                let (cx, cy) = cell_centre(&br, *x, *y);
                br.click_at(cx, cy);
            }
        };
        click_cells(&[(5, 2), (6, 2)]);
        assert_eq!(path_value(), "5,2 6,2");
        assert_eq!(marks(), 2);
        br.click("#path-clear");
        assert_eq!(path_value(), "");
        assert_eq!(marks(), 0);
        click_cells(&[(5, 2)]);
        br.click("#path-form button[type=submit]");
        let started = std::time::Instant::now();
        while br.text(ap_css) != "21" {
            assert!(started.elapsed().as_secs() < 10, "the path is followed");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        assert!(br.source().contains("data-x=\"5\" data-y=\"2\"><circle"));
        assert_eq!(
            br.script("return window.grognardMark || null;"),
            42,
            "following a path did not reload the page"
        );
    }

    if width < 500 {
        // Pinching the map goes a zoom level farther, spreading two fingers a level nearer,
        // around the cell between the fingers, in place.
        let (ux, uy) = unit_centre(&br);
        br.pinch(ux, uy, 160.0, 60.0);
        br.find("svg#map[data-cell='22']");
        br.screenshot("05b-pinched");
        assert!(company_in_view(&br), "the company stays in the box");
        let (ux, uy) = unit_centre(&br);
        br.pinch(ux, uy, 60.0, 160.0);
        br.find("svg#map[data-cell='40']");
        br.screenshot("05c-spread");
        assert!(company_in_view(&br));
        assert_eq!(
            br.script("return window.grognardMark || null;"),
            42,
            "pinching did not reload the page"
        );
    }

    // On a phone the cell's sheet covers the foot of the screen: the player closes it.
    let close_sheet = || {
        if width < 500 && br.script("return !!document.getElementById('cell-panel');") == true {
            br.click("#cell-panel .sheet-close");
            let started = std::time::Instant::now();
            while br.script("return !document.getElementById('cell-panel');") != true {
                assert!(started.elapsed().as_secs() < 10, "the sheet closes");
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        }
    };
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        let started = std::time::Instant::now();
        while !done() {
            assert!(started.elapsed().as_secs() < 10, "{what} at {width}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };

    if width < 500 {
        // Scrolled by the player to the east edge of the window drawn, the map goes on beyond
        // it in place: the column at the box's east side stays there. And back west.
        close_sheet();
        let edge = "var w = document.querySelector('.map-wrap'), \
                      g = JSON.parse(document.getElementById('map-layout').textContent); \
                    return [g.x0, g.x0 + Math.floor((w.scrollLeft + w.clientWidth - 1) / g.cell), \
                      g.x0 + g.cols - 1];";
        let middle = br.script(
            "var r = document.querySelector('.map-wrap').getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2];",
        );
        let (bx, by) = (middle[0].as_f64().unwrap(), middle[1].as_f64().unwrap());
        let before = br.script(edge);
        br.wheel(bx, by, 5000.0, 0.0);
        wait_for("the map going on east", &|| br.script(edge)[0] != before[0]);
        let after = br.script(edge);
        assert!(after[0].as_i64() > before[0].as_i64(), "{before} → {after}");
        // Scrolled to its end, the box showed the window's last column: it still does.
        assert_eq!(
            after[1], before[2],
            "the east column stays under the finger"
        );
        br.screenshot("05c2-panned-east");
        br.wheel(bx, by, -5000.0, 0.0);
        wait_for("the map going back west", &|| {
            br.script(edge)[0] == before[0]
        });
        assert_eq!(
            br.script("return window.grognardMark || null;"),
            42,
            "panning past the window did not reload the page"
        );
        // The box scrolled to the window's east edge by a script, not by the player: no pan.
        let x0 = br.script(edge)[0].clone();
        br.script(
            "var w = document.querySelector('.map-wrap'); w.scrollLeft = w.scrollWidth; return null;",
        );
        // Past the script's 200 ms wait after a scroll: a pan would have begun by then, and
        // shows as a page loading until its window arrives.
        std::thread::sleep(std::time::Duration::from_millis(600));
        assert_eq!(
            br.script("return document.body.classList.contains('loading');"),
            false,
            "no pan under way"
        );
        assert_eq!(
            br.script(edge)[0],
            x0,
            "a scroll not the player's pans nothing"
        );
        // The box back on the company.
        br.script(
            "var w = document.querySelector('.map-wrap'), u = document.querySelector('#map g.unit.mine').getBBox(); \
             w.scrollLeft = u.x + u.width / 2 - w.clientWidth / 2; w.scrollTop = u.y + u.height / 2 - w.clientHeight / 2; return null;",
        );
        assert!(company_in_view(&br), "back where the company is");
    }

    // The Russian is in sight and in range now: an enemy on the map, a volley from its cell.
    close_sheet();
    let class = unit_class(&br, foe);
    assert!(class.contains("enemy"), "a Russian is an enemy: {class}");
    assert!(unit_class(&br, friend).contains("friend"));
    let (ex, ey) = cell_centre(&br, 6, 4);
    br.click_at(ex, ey);
    br.find("#cell-panel form[action$='/volley'] button");
    check("05d-enemy-cell", true);
    // The button says what the volley costs and what it gives on average.
    let button = br.text("#cell-panel form[action$='/volley']");
    assert!(
        button.starts_with("Volley (") && button.contains("on average they lose"),
        "{button}"
    );
    br.click("#cell-panel form[action$='/volley'] button");
    wait_for("the volley's report", &|| {
        br.script("var r = document.getElementById('last-report'); return !!r && r.textContent.indexOf('Pavlovsky') >= 0;") == true
    });
    assert_eq!(map_top(&br), top, "a volley's report does not move the map");
    // The report where the order was given: in the cell's panel (the sheet on a phone), in
    // sight; and the hit on the map, the losses over the target.
    assert_eq!(
        br.script("return !!document.querySelector('#cell-panel #last-report');"),
        true
    );
    let report_top = br
        .script("return document.getElementById('last-report').getBoundingClientRect().top;")
        .as_f64()
        .unwrap();
    assert!(
        report_top >= 0.0 && report_top < f64::from(height) - 40.0,
        "the report in sight at {width}: {report_top}"
    );
    let hit = br.text("#map g.hit");
    assert!(hit.starts_with('−'), "the losses drawn: {hit:?}");
    assert_eq!(ticked(&br, "volley"), Some(true));
    check("05e-volley", true);

    // Looking into the fog: a tap on a cell nobody of France sees ticks the step.
    close_sheet();
    assert_eq!(ticked(&br, "fog"), Some(false));
    let (gx, gy) = fogged_point(&br).expect("a fogged cell in view");
    br.click_at(gx, gy);
    wait_for("the fog step", &|| ticked(&br, "fog") == Some(true));
    assert_eq!(map_top(&br), top);
    check("05f-fog", true);
    assert_eq!(
        br.script("return window.grognardMark || null;"),
        42,
        "the whole first day on the map without a reload"
    );

    // Cavalry has no volley: a company of hussars raised, brought next to the Russian and
    // charging him, the button saying its cost and what it gives on average.
    close_sheet();
    br.type_into("#raise-name", "2e Hussards");
    br.script(
        "document.querySelector('form.raise select[name=kind]').value = 'cavalry'; return null;",
    );
    br.click("form.raise button");
    wait_for("the hussars in hand", &|| {
        br.script("var h = document.querySelector('#path-panel h2'); return !!h && h.textContent.indexOf('2e Hussards') === 0;") == true
    });
    let (hx, hy) = cell_centre(&br, 5, 4);
    br.click_at(hx, hy);
    br.find("#move-here");
    br.click("#move-here");
    wait_for("the hussars' move", &|| {
        br.script("var r = document.getElementById('last-report'); return !!r && r.textContent.indexOf('2e Hussards moved to (5, 4)') >= 0;") == true
    });
    close_sheet();
    let (ex, ey) = cell_centre(&br, 6, 4);
    br.click_at(ex, ey);
    br.find("#cell-panel form[action$='/melee'] button");
    assert_eq!(
        br.script("return !!document.querySelector(\"#cell-panel form[action$='/volley']\");"),
        false,
        "cavalry fires no volley"
    );
    let button = br.text("#cell-panel form[action$='/melee']");
    assert!(
        button.starts_with("Charge (") && button.contains("on average they lose"),
        "{button}"
    );
    br.click("#cell-panel form[action$='/melee'] button");
    wait_for("the charge's report", &|| {
        br.script("var r = document.getElementById('last-report'); return !!r && r.textContent.indexOf('2e Hussards') >= 0 && r.textContent.indexOf('Pavlovsky') >= 0;") == true
    });
    assert!(
        br.text("#map g.hit").starts_with('−'),
        "the charge's losses drawn"
    );
    check("05g-charge", false);

    // The company's own page, with every order, and the way back to the map.
    close_sheet();
    br.click("ul.companies a[href^='/companies/']");
    br.find("#men");
    check("06-company", false);
    br.click("main a[href^='/worlds/1?company=']");
    br.find("#map g.unit.mine");
    check("06b-back-from-company", true);

    // Reading the reports is the last step: back on the map the checklist is gone.
    assert_eq!(ticked(&br, "report"), Some(false));
    br.goto(&format!("{base}/worlds/1/reports"));
    assert!(br
        .text("main")
        .contains("1er Grenadiers moved to (4, 2) for 2 AP"));
    check("07-reports", false);
    let shot = br.shots_dir().join("07-reports.png");
    assert!(std::fs::metadata(shot).unwrap().len() > 1000);
    br.click("main a[href='/worlds/1']");
    br.find("#map g.unit.mine");
    check("07b-back-from-reports", true);
    assert_eq!(ticked(&br, "report"), None, "the first day is done");
    assert_eq!(
        br.script("return !!document.getElementById('first-day');"),
        false
    );

    // Every other way back to the world page shows the company: the worlds list, a change of
    // language, and logging in again.
    br.goto(&format!("{base}/"));
    // The home page opens on the player's own worlds: their company, one tap from the map.
    br.find("#your-worlds .your-companies a[href^='/worlds/1?company=']");
    assert!(br.text("#your-worlds").contains("1er Grenadiers"));
    check("08a-your-worlds", false);
    br.click("main a[href='/worlds/1']");
    br.find("#map g.unit.mine");
    check("08-from-the-worlds-list", true);
    br.click("footer a[href='/lang/fr']");
    br.find("html[lang='fr'] #map g.unit.mine");
    check("09-in-french", true);
    // The script counts down to the next turn in the page's language.
    let countdown = br.text(".countdown");
    assert!(
        countdown.starts_with("dans ") && countdown.ends_with(" s"),
        "{countdown}"
    );
    br.click("footer a[href='/lang/en']");
    br.find("html[lang='en'] #map g.unit.mine");
    assert!(br.text(".countdown").starts_with("in "));
    br.click("form[action='/logout'] button");
    br.find("a[href='/login']");
    br.goto(&format!("{base}/worlds/1"));
    br.click("main a[href^='/login?next=']");
    br.type_into("#username", "marie_louise");
    br.type_into("#password", "a long enough password");
    br.click("form.stack button[type=submit]");
    br.find("#map g.unit.mine");
    assert!(br.url().contains("/worlds/1"), "{}", br.url());
    check("10-after-login", true);

    // Two turns later, the standings: the nations' curves, the player's own row marked, the
    // table scrolled inside its box, not the page.
    let rs = app.config.rules.clone();
    let now = grognard::db::now();
    for at in [now, now + 10] {
        grognard::game::time::ticks::apply(
            &mut app.conn(),
            &rs,
            grognard::ids::WorldId(1),
            grognard::game::time::ticks::TickKind::Turn,
            at,
            false,
        )
        .unwrap();
    }
    br.click("main a[href='/worlds/1/standings']");
    br.find("figure.chart svg.plot polyline.series");
    check("11-standings", false);
    // Wide enough to read, and its labels no smaller than the page's small print.
    let chart_width = br
        .script(
            "return document.querySelector('figure.chart svg.plot').getBoundingClientRect().width;",
        )
        .as_f64()
        .unwrap();
    assert!(
        chart_width >= 300.0,
        "the points chart is {chart_width} px wide"
    );
    let label = br
        .script("return document.querySelector('figure.chart .labels.y text').getBoundingClientRect().height;")
        .as_f64()
        .unwrap();
    assert!((9.0..=22.0).contains(&label), "axis labels {label} px high");
    assert!(br.text("table.rankings tr.me").contains("marie_louise"));
    assert!(br.text("table.rankings tr.me").contains("(you)"));
    br.click("nav.tabs a[href='?by=turns#rankings']");
    br.find("nav.tabs a[aria-current][href='?by=turns#rankings']");
    check("12-standings-by-turns", false);
    assert!(br.text("table.rankings tr.me").contains("marie_louise"));
    br.click("footer a[href='/lang/fr']");
    br.find("html[lang='fr'] figure.chart svg");
    assert!(br.text("main").contains("Points de victoire"));
    check("13-standings-in-french", false);
    br.click("footer a[href='/lang/en']");
    br.find("html[lang='en'] figure.chart svg");
    // The nations, ranked by the same points: its table scrolls in its box, not the page.
    br.click("main a[href='/worlds/1/nations']");
    br.find("table.scoreboard td.points");
    check("14-nations", false);
}

both!(a_new_player_plays_a_day_in_the_browser, |b| {
    a_new_player_walks_through_the_first_day(b, 1280, 900);
});

both!(a_new_player_plays_a_day_on_a_phone, |b| {
    a_new_player_walks_through_the_first_day(b, 390, 844);
});

both!(a_game_master_paints_a_cell_in_the_editor, |b| {
    let app = TestApp::spawn(b);
    grognard::game::accounts::create_user(
        &mut app.conn(),
        "painter",
        "a long enough password",
        grognard::game::accounts::Role::Gm,
    )
    .unwrap();
    let br = Browser::start(&format!("screenshots-editor-{b:?}").to_lowercase());
    let base = &app.base;
    br.goto(&format!("{base}/login"));
    br.type_into("#username", "painter");
    br.type_into("#password", "a long enough password");
    br.click("form.stack button[type=submit]");
    br.find("form[action='/logout']");

    br.goto(&format!("{base}/gm/worlds/1?x=6&y=6&zoom=3"));
    let target = "g.cell[data-x='3'][data-y='5']";
    br.find(&format!("{target}.t-plain"));
    br.click(".palette button[data-terrain='marsh']");
    br.screenshot("01-editor");
    br.click(&format!("{target} rect.bg"));
    br.find("svg#map[data-saved='1']");
    assert!(br.text("#editor-status").contains("cells saved: 1"));
    br.screenshot("02-painted");
    // The change is stored: a fresh page shows it, and so does the database.
    br.goto(&format!("{base}/gm/worlds/1?x=6&y=6&zoom=3"));
    br.find(&format!("{target}.t-marsh"));
    assert_eq!(app.count("SELECT COUNT(*) FROM cells WHERE world_id = 1 AND x = 3 AND y = 5 AND terrain = 'marsh'"), 1);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM gm_audit WHERE action = 'cell' AND x = 3 AND y = 5"),
        1
    );
    // A 3×3 brush paints the cell and its neighbours in one request.
    br.click(".palette button[data-terrain='forest']");
    br.click("#brush");
    br.click("#brush option[value='3']");
    br.click("g.cell[data-x='8'][data-y='8']");
    br.find("svg#map[data-saved='1']"); // counted since the page was loaded again
    assert_eq!(app.count("SELECT COUNT(*) FROM cells WHERE world_id = 1 AND x BETWEEN 7 AND 9 AND y BETWEEN 7 AND 9 AND terrain = 'forest'"), 9);
    br.screenshot("03-brush");
    // A click near the south side of (4, 4) sets a rampart on the edge the square grid names
    // after the cell below, (4, 5) N.
    br.click("#tool");
    br.click("#tool option[value='rampart']");
    let at = br.script(
        "var b = document.querySelector(\"g.cell[data-x='4'][data-y='4'] .bg\").getBoundingClientRect();\
         return [b.left + b.width * 0.4, b.top + b.height * 0.9];",
    );
    br.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    br.find("svg#map path.rampart");
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM edges WHERE world_id = 1 AND x = 4 AND y = 5 AND side = 'N'"
        ),
        1
    );
    br.screenshot("04-rampart");
});

/// A French assault on the demo's castle Mozhaisk, held by Russia: a ladder onto the west
/// wall, the ram at the gate, and the section changing hands at the next turn.
fn storming_the_castle(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    let nation = |name: &str| {
        app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = 1 AND name = '{name}'"
        ))
        .to_string()
    };
    let put = |id: i64, x: i32, y: i32| {
        app.exec(&format!(
            "UPDATE companies SET x = {x}, y = {y} WHERE id = {id}"
        ))
    };
    let turn = |at: i64| {
        let rs = app.config.rules.clone();
        grognard::game::time::ticks::apply(
            &mut app.conn(),
            &rs,
            grognard::ids::WorldId(1),
            grognard::game::time::ticks::TickKind::Turn,
            at,
            false,
        )
        .unwrap();
    };
    // A Russian guard holds the west wall's northern stretch (29, 10) for a turn.
    let mut ivan = fixtures::player(&app, "ivan");
    let garde = fixtures::join_and_raise(&mut ivan, 1, &nation("Russia"), "infantry", "Garde");
    put(garde, 29, 10);
    let now = grognard::db::now();
    turn(now);
    put(garde, 31, 10);
    // The French: one company below that wall, one at the gate.
    let mut marie = fixtures::player(&app, "marie_louise");
    let assaut = fixtures::join_and_raise(&mut marie, 1, &nation("France"), "infantry", "Assaut");
    let csrf = marie.get("/worlds/1").csrf();
    let r = marie.post_form(
        "/worlds/1/companies",
        &[("csrf", &csrf), ("kind", "infantry"), ("name", "Bélier")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let belier: i64 = r
        .header("location")
        .unwrap()
        .rsplit('=')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    put(assaut, 28, 10);
    put(belier, 28, 12);

    let shots = format!("screenshots-castle-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let base = &app.base;
    log_in(&br, base, "marie_louise");
    br.goto(&format!("{base}/worlds/1/standings"));
    br.find("table.castle");
    // France had no company near the wall when the turn found Russia on it: not told.
    assert_eq!(
        br.text("table.castle tr[data-section='wall 2'] td.holder"),
        "Russia’s ground, no holder seen"
    );
    br.screenshot("01-standings-before");
    // Each section leads to the map, on it.
    br.click("table.castle tr[data-section='wall 2'] a");
    br.find("#cell-panel");
    assert!(br.url().contains("cell="), "{}", br.url());
    assert!(
        br.text("#cell-panel h2").contains("wall"),
        "{}",
        br.text("#cell-panel h2")
    );
    // The castle's name is on the map; the section is outlined there and named in the panel.
    assert!(!br.text("svg#map text.castle-label").is_empty());
    assert_eq!(
        br.text("#cell-section"),
        "Castle Mozhaisk: wall 2 · Russia’s ground, no holder seen"
    );
    let outlined = br.script(
        "var g = document.querySelectorAll('#map g.section.on'); \
         return g.length === 1 ? [g[0].querySelector('title').textContent, \
           getComputedStyle(g[0].querySelector('.section-line')).opacity] : g.length;",
    );
    assert_eq!(outlined, json!(["Castle Mozhaisk: wall 2", "1"]));
    // In sight: on a phone above the cell's sheet.
    assert_eq!(
        br.script(
            "var r = document.querySelector('#map g.section.on').getBoundingClientRect(), \
               w = document.querySelector('.map-wrap').getBoundingClientRect(), \
               s = document.getElementById('cell-panel'), \
               bottom = getComputedStyle(s).position === 'fixed' ? s.getBoundingClientRect().top : window.innerHeight; \
             return r.top >= Math.max(w.top, 0) && r.bottom <= Math.min(w.bottom, bottom) && r.left >= w.left && r.right <= w.right;"
        ),
        true,
        "the picked section in sight at {width}"
    );
    assert_eq!(
        br.script("return getComputedStyle(document.querySelector('#map g.section:not(.on) .section-line')).opacity;"),
        "0",
        "the other sections are not outlined"
    );
    if width >= 500 {
        // The pointer over a tower outlines it, and its tooltip names it.
        let at = br.script(
            "var g = Array.from(document.querySelectorAll('#map g.section:not(.on)')) \
               .find(function (s) { return s.querySelector('title').textContent.indexOf('tower') >= 0; }); \
             g.scrollIntoView({block: 'center'}); \
             var b = g.querySelector('.section-area').getBoundingClientRect(); \
             return [b.left + b.width / 2, b.top + b.height / 2, g.querySelector('title').textContent];",
        );
        br.hover_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let hovered = br.script(
            "var g = Array.from(document.querySelectorAll('#map g.section')).filter(function (s) { return s.matches(':hover'); }); \
             return g.map(function (s) { return [s.querySelector('title').textContent, getComputedStyle(s.querySelector('.section-line')).opacity]; });",
        );
        assert_eq!(hovered, json!([[at[2].clone(), "1"]]));
        assert!(at[2]
            .as_str()
            .unwrap()
            .starts_with("Castle Mozhaisk: tower "));
    }
    br.screenshot("01b-section-on-the-map");

    // The ladder: tap the wall next to the company, then the climb, named as one.
    br.goto(&format!("{base}/worlds/1?company={assaut}&zoom=3"));
    br.find("g.cell.t-wall");
    br.screenshot("02-before-the-walls");
    let (wx, wy) = cell_centre(&br, 29, 10);
    br.click_at(wx, wy);
    br.find("#move-here");
    let climb = br.text("#cell-panel form[action$='/move']");
    assert!(
        climb.starts_with("Climb the wall (") && climb.contains("strike first"),
        "{climb}"
    );
    br.screenshot("03-wall-selected");
    br.click("#move-here");
    br.find("#last-report");
    assert!(
        br.text("#last-report")
            .contains("took the castle cell at (29, 10)"),
        "{}",
        br.text("#last-report")
    );
    assert!(no_sideways_scroll(&br));
    br.screenshot("04-on-the-wall");

    // The ram: the other company taps the gate and rams it.
    br.goto(&format!("{base}/worlds/1?company={belier}&zoom=3"));
    let (gx, gy) = cell_centre(&br, 29, 11);
    br.click_at(gx, gy);
    br.find("form[action$='/ram'] button");
    br.click("form[action$='/ram'] button");
    br.find("#last-report");
    assert!(
        br.text("#last-report")
            .contains("rammed the gate at (29, 11)"),
        "{}",
        br.text("#last-report")
    );
    br.screenshot("05-rammed");

    // After the next turn the stretch of wall is France's.
    turn(now + 10);
    br.goto(&format!("{base}/worlds/1/standings#castles"));
    br.find("table.castle");
    assert_eq!(
        br.text("table.castle tr[data-section='wall 2'] td.holder"),
        "France"
    );
    assert!(no_sideways_scroll(&br));
    br.screenshot("06-standings-after");
}

both!(a_castle_is_stormed_in_the_browser, |b| {
    storming_the_castle(b, 1280, 900);
});

both!(a_castle_is_stormed_on_a_phone, |b| {
    storming_the_castle(b, 390, 844);
});

/// Whether the page is still the one loaded at first (the forms answered in place).
fn same_document(br: &Browser) -> bool {
    br.script("return window.__first === true;") == serde_json::json!(true)
}

fn talking(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    let nation = |name: &str| {
        app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = 1 AND name = '{name}'"
        ))
        .to_string()
    };
    let mut marie = fixtures::player(&app, "marie_louise");
    let company =
        fixtures::join_and_raise(&mut marie, 1, &nation("France"), "infantry", "Voltigeurs");
    // A Russian player writes to her before she comes.
    let mut ivan = fixtures::player(&app, "ivan");
    fixtures::join_and_raise(&mut ivan, 1, &nation("Russia"), "infantry", "Garde");
    let csrf = ivan.get("/worlds/1/messages").csrf();
    let r = ivan.post_form(
        "/worlds/1/messages",
        &[
            ("csrf", &csrf),
            ("to", "marie_louise"),
            ("body", "Shall we parley at the bridge?"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    let shots = format!("screenshots-talk-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let base = &app.base;
    log_in(&br, base, "marie_louise");
    // The header says a message waits; it leads to the conversation.
    assert_eq!(br.text("#messages-badge"), "1");
    br.click("#messages-link");
    br.find(".threads a[href*='with=ivan']");
    br.click(".threads a[href*='with=ivan']");
    br.find("form.write input[name=to][value='ivan']");
    assert!(br
        .text("ol.messages")
        .contains("Shall we parley at the bridge?"));
    assert!(!br.source().contains("id=\"messages-badge\""));
    br.script("window.__first = true; return null;");
    br.screenshot("01-a-message-read");

    // She answers, and the answer shows without the page being loaded again.
    br.type_into("#body", "At noon. Come alone.");
    br.click("form.write button[type=submit]");
    br.find("li.message.mine");
    assert!(br.text("li.message.mine").contains("At noon. Come alone."));
    assert!(same_document(&br), "the page was loaded again");
    assert!(no_sideways_scroll(&br));
    br.screenshot("02-answered");

    // Her nation's board.
    br.click("a[href='/worlds/1/messages']");
    br.find("form.write input[name=to][value='nation']");
    br.type_into("#body", "Rally at the mill at dawn");
    br.click("form.write button[type=submit]");
    br.find("li.message.mine");
    assert!(br.text("ol.messages").contains("Rally at the mill at dawn"));
    assert!(same_document(&br));
    br.screenshot("03-the-board");

    // A name mistyped: the page stays whole, says so and offers the name meant.
    br.type_into("#with-name", "ivann");
    br.click("form.new-thread button[type=submit]");
    br.find("#no-such-player");
    assert!(br.text("#no-such-player").contains("“ivann”"));
    assert!(br.source().contains("<header class=\"top\">"));
    assert!(no_sideways_scroll(&br));
    br.screenshot("03b-a-name-mistyped");
    br.click("#no-such-player a[href*='with=ivan']");
    br.find("form.write input[name=to][value='ivan']");

    // A marker from the cell panel of the world page.
    br.goto(&format!("{base}/worlds/1?company={company}&zoom=3"));
    br.find("#map g.unit");
    br.script("window.__first = true; return null;");
    let (ux, uy) = unit_centre(&br);
    let (cx, cy) = {
        let size = br.script("return Number(document.querySelector('#map').getAttribute('data-cell')) * (document.querySelector('#map').getBoundingClientRect().width / Number(document.querySelector('#map').getAttribute('width')));");
        (ux + size.as_f64().unwrap(), uy)
    };
    br.click_at(cx, cy);
    br.find("#marker-label");
    br.type_into("#marker-label", "enemy guns");
    br.click("#drop-marker");
    br.find(".marker-line");
    assert!(br.text(".marker-line").contains("enemy guns"));
    br.find("#map g.marker");
    assert!(same_document(&br), "the world page was loaded again");
    assert!(no_sideways_scroll(&br));
    br.screenshot("04-a-marker");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM markers WHERE label = 'enemy guns'"),
        1
    );
}

both!(players_talk_and_mark_the_map_in_the_browser, |b| {
    talking(b, 1280, 900);
});

both!(players_talk_and_mark_the_map_on_a_phone, |b| {
    talking(b, 390, 844);
});

/// The hex demo: a French company crosses the river by its bridge and charges the Austrians
/// behind the rampart of the east bank; the report says the rampart counted.
fn across_the_rampart(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    let hex = fixtures::hex_demo(&app);
    let nation = |name: &str| {
        app.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM nations WHERE world_id = {hex} AND name = '{name}'"
        ))
        .to_string()
    };
    let put = |id: i64, x: i32, y: i32| {
        app.exec(&format!(
            "UPDATE companies SET x = {x}, y = {y} WHERE id = {id}"
        ))
    };
    let mut karl = fixtures::player(&app, "karl");
    let wacht = fixtures::join_and_raise(&mut karl, hex, &nation("Austria"), "infantry", "Wacht");
    put(wacht, 12, 8);
    let mut marie = fixtures::player(&app, "marie_louise");
    let garde = fixtures::join_and_raise(&mut marie, hex, &nation("France"), "infantry", "Garde");
    put(garde, 10, 7);

    let shots = format!("screenshots-hex-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let base = &app.base;
    log_in(&br, base, "marie_louise");
    br.goto(&format!("{base}/worlds/{hex}?company={garde}&zoom=3"));
    br.find("#map[data-grid='hex'] path.rampart");
    br.screenshot("01-the-river");
    // Plain ground is drawn in one piece: the page's script finds the hex under a click, on
    // an even row, on an odd one, and in the top corner of an odd row's box, which is the
    // hex above's.
    for (x, y, fx, fy, picked) in [
        (9, 6, 0.5, 0.5, (9, 6)),
        (9, 7, 0.5, 0.5, (9, 7)),
        (9, 7, 0.05, 0.075, (9, 6)),
    ] {
        let (px, py) = cell_point(&br, x, y, fx, fy);
        br.click_at(px, py);
        br.find(&format!(
            "#map g.cell.selected[data-x='{}'][data-y='{}']",
            picked.0, picked.1
        ));
        assert!(
            br.text("#cell-panel h2")
                .contains(&format!("({}, {})", picked.0, picked.1)),
            "{}",
            br.text("#cell-panel h2")
        );
    }
    // (10, 7) is on an odd row: the bridge (11, 8) is its south-east neighbour.
    let (bx, by) = cell_centre(&br, 11, 8);
    br.click_at(bx, by);
    br.find("#map g.cell.selected[data-x='11'][data-y='8']");
    br.find("#move-here");
    assert!(
        br.text("#cell-panel h2").contains("(11, 8)"),
        "{}",
        br.text("#cell-panel h2")
    );
    br.screenshot("02-the-bridge-selected");
    br.click("#move-here");
    br.find("#last-report");
    assert_eq!(
        app.count(&format!(
            "SELECT CAST(x * 100 + y AS BIGINT) AS n FROM companies WHERE id = {garde}"
        )),
        1108
    );
    br.screenshot("03-on-the-bridge");
    // The Austrians at (12, 8), behind the rampart on the bridge's east side.
    let (ex, ey) = cell_centre(&br, 12, 8);
    br.click_at(ex, ey);
    br.find("form[action$='/melee'] button");
    br.click("form[action$='/melee'] button");
    br.find("#last-report");
    let report = br.text("#last-report");
    assert!(
        report.contains("A rampart on the side the blow came through"),
        "{report}"
    );
    assert!(no_sideways_scroll(&br));
    br.screenshot("04-charged-across-the-rampart");
}

both!(a_charge_across_a_rampart_on_the_hex_demo, |b| {
    across_the_rampart(b, 1280, 900);
});

both!(a_charge_across_a_rampart_on_the_hex_demo_on_a_phone, |b| {
    across_the_rampart(b, 390, 844);
});

both!(a_game_master_clicks_a_side_of_a_hex_to_set_a_rampart, |b| {
    let app = TestApp::spawn(b);
    let hex = fixtures::hex_demo(&app);
    grognard::game::accounts::create_user(
        &mut app.conn(),
        "sapper_general",
        fixtures::PASSWORD,
        grognard::game::accounts::Role::Gm,
    )
    .unwrap();
    let br = Browser::start(&format!("screenshots-hex-editor-{b:?}").to_lowercase());
    let base = &app.base;
    log_in(&br, base, "sapper_general");
    br.goto(&format!("{base}/gm/worlds/{hex}?x=6&y=6&zoom=3"));
    br.find("svg#map[data-grid='hex']");
    br.click("#tool");
    br.click("#tool option[value='rampart']");
    let ramparts = || {
        app.count(&format!(
            "SELECT COUNT(*) FROM edges WHERE world_id = {hex}"
        ))
    };
    let before = ramparts();
    // A click at a point of a cell's box, as fractions of its width and height. The editor
    // reloads its page once the side is saved: the click returns on the page reloaded, so the
    // next one does not find the old page's elements.
    let click_in = |x: i32, y: i32, fx: f64, fy: f64| {
        let at = br.script(&format!(
            "window.grognardMark = 42;\
             var b = document.querySelector(\"g.cell[data-x='{x}'][data-y='{y}'] .bg\").getBoundingClientRect();\
             return [b.left + b.width * {fx}, b.top + b.height * {fy}];"
        ));
        br.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        wait_until(10, "the editor reloads once the side is saved", || {
            !not_reloaded(&br) && br.script("return document.readyState;") == "complete"
        });
    };
    let wait_for = |n: i64| {
        let mut tries = 0;
        while ramparts() != n && tries < 50 {
            std::thread::sleep(std::time::Duration::from_millis(100));
            tries += 1;
        }
    };
    // Near the east side of (5, 5): a rampart between it and (6, 5).
    click_in(5, 5, 0.9, 0.5);
    br.find("svg#map path.rampart");
    wait_for(before + 1);
    assert_eq!(ramparts(), before + 1);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM edges WHERE world_id = {hex} AND x = 5 AND y = 5 AND side = 'E'"
        )),
        1
    );
    br.screenshot("01-a-rampart-set");
    // The same side again takes it off.
    br.find("#tool");
    br.click("#tool");
    br.click("#tool option[value='rampart']");
    click_in(6, 5, 0.1, 0.5);
    wait_for(before);
    assert_eq!(
        ramparts(),
        before,
        "the west side of (6, 5) is the same edge"
    );
    // A slanted side on an odd row: the south-west side of (5, 5) is the edge named after the
    // cell across it, (5, 6), whose north-east side is the same edge.
    br.find("#tool");
    br.click("#tool");
    br.click("#tool option[value='rampart']");
    click_in(5, 5, 0.3, 0.8);
    wait_for(before + 1);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM edges WHERE world_id = {hex} AND x = 5 AND y = 6 AND side = 'NE'"
        )),
        1
    );
    br.find("svg#map path.rampart");
    br.screenshot("02-a-slanted-rampart");
    br.find("#tool");
    br.click("#tool");
    br.click("#tool option[value='rampart']");
    click_in(5, 6, 0.7, 0.2);
    wait_for(before);
    assert_eq!(
        ramparts(),
        before,
        "the north-east side of (5, 6) is the same edge"
    );
});

/// Waits up to `secs` seconds for `done`, saying `what` when it never comes.
fn wait_until(secs: u64, what: &str, done: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    while !done() {
        assert!(started.elapsed().as_secs() < secs, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The live line's state: connecting, on, retry or off.
fn live_state(br: &Browser) -> String {
    br.script("var s = document.getElementById('live-state'); return s ? s.getAttribute('data-state') : null;")
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Whether the page still is the one loaded at first (marked by the test).
fn not_reloaded(br: &Browser) -> bool {
    br.script("return window.grognardMark || null;") == 42
}

/// Whether the live line and the boxes it could be in the way of overlap: the map's box, the
/// header, the cell's panel (a sheet on a phone); and the line is on the screen whole.
fn live_line_in_the_clear(br: &Browser) -> Result<(), String> {
    let v = br.script(
        "var l = document.getElementById('live').getBoundingClientRect();\
         var hit = function (sel) { var e = document.querySelector(sel); if (!e) return null;\
           var r = e.getBoundingClientRect();\
           return (r.left < l.right && l.left < r.right && r.top < l.bottom && l.top < r.bottom) ? sel : null; };\
         var clash = ['.map-wrap', 'header.top', '#cell-panel', 'nav.pan', '.talk-cols'].map(hit).filter(Boolean);\
         var on = l.top >= 0 && l.bottom <= window.innerHeight + 0.5 && l.left >= 0 && l.right <= window.innerWidth + 0.5;\
         return [clash.join(' '), on || window.innerWidth > 700, l.height];",
    );
    let clash = v[0].as_str().unwrap_or("");
    if !clash.is_empty() {
        return Err(format!("the live line overlaps {clash}"));
    }
    if v[1] != true {
        return Err("a phone's live strip is off the screen".into());
    }
    if v[2].as_f64().unwrap_or(0.0) < 20.0 {
        return Err(format!("the live line is {} px high", v[2]));
    }
    Ok(())
}

/// The world page follows the world as it moves (the live stream): refused at first, it says
/// so and tries again; then a turn, an enemy coming into sight and going, a private message,
/// an attack with its alert and report, an alert given while the tab was hidden, and the
/// messages page's conversation, all without a reload, at one window size.
fn following_the_world(b: crate::support::Backend, width: u32, height: u32) {
    // One stream a player, freed a second after its client goes: the page meets the limit.
    let a = fixtures::arena_with(b, |s| {
        s.live.streams_per_user = 1;
        s.live.keep_alive_seconds = 1;
    });
    let mut blue = a.blue.clone();
    let mut red = a.red.clone();
    let ligne = a.raise(&mut blue, "infantry", "Ligne");
    let feinde = a.raise(&mut red, "infantry", "Feinde");
    a.put(ligne, 3, 3);
    a.set(ligne, "ap = 3");
    a.put(feinde, 10, 3);
    let w = a.world;
    let base = &a.app.base;
    let shots = format!("screenshots-live-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let check = |step: &str| {
        br.screenshot(step);
        if let Err(e) = live_line_in_the_clear(&br) {
            panic!("{step} at {width}: {e}");
        }
        assert!(no_sideways_scroll(&br), "{step} at {width}");
    };
    let text_of = |css: &str| -> String {
        br.script(&format!(
            "var e = document.querySelector(\"{css}\"); return e ? e.textContent : null;"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    };
    let ap_css = format!("span.ap[data-company='{ligne}']");
    let men_css = format!("span.men[data-company='{ligne}']");
    let token_title = |id: i64| text_of(&format!("#map g.unit[data-company='{id}'] title"));

    // The player's one stream is taken: the page is refused, says so, and once the other
    // stream is gone tries again by itself.
    let held = live::open(base, &a.blue, w, None);
    assert_eq!(held.status, 200, "{}", held.body);
    log_in(&br, base, "blue_player");
    br.goto(&format!("{base}/worlds/{w}?company={ligne}"));
    br.find("#live-state[data-state='off']");
    assert!(!br.text("#live-state").is_empty());
    check("01-refused");
    drop(held);
    wait_until(30, "the page tries the stream again", || {
        live_state(&br) == "on"
    });
    // Layout shifts from here on are the stream's.
    br.script(
        "window.grognardMark = 42; window.grognardShift = 0; var t0 = performance.now();\
         new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {\
           if (e.startTime > t0 && !e.hadRecentInput) window.grognardShift += e.value; }); })\
           .observe({type: 'layout-shift', buffered: true});\
         return null;",
    );
    check("02-live");

    // A turn: its number, and the company's AP in the list, the selected company's heading
    // and its mark's tooltip.
    let turn = br.text("#world-turn");
    assert_eq!(br.text(&ap_css), "3");
    let mut gm = fixtures::gm_api(&a.app, "live_gm");
    let r = gm.post_json(
        &format!("/api/v1/worlds/{w}/ticks"),
        json!({"kind": "turn"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    wait_until(10, "the turn on the page", || {
        br.text("#world-turn") != turn && br.text(&ap_css) != "3"
    });
    let ap = a.company(&mut blue, ligne)["ap"].as_i64().unwrap();
    assert!(ap > 3);
    assert_eq!(br.text(&ap_css), ap.to_string());
    assert!(
        br.text("#path-panel h2").ends_with(&format!(": {ap} AP")),
        "{}",
        br.text("#path-panel h2")
    );
    assert!(
        token_title(ligne).ends_with(&format!(" · {ap} AP")),
        "{}",
        token_title(ligne)
    );
    let number = |s: &str| s.trim_start_matches("Turn ").parse::<i64>().unwrap();
    assert_eq!(number(&br.text("#world-turn")), number(&turn) + 1);
    assert!(not_reloaded(&br), "the turn reloaded the page");
    check("03-turn");

    // An enemy comes into sight (three cells away) and goes out of it again.
    a.put(feinde, 7, 3);
    let r = a.act(&mut red, feinde, "move", json!({"path": [[6, 3]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    br.find(&format!(
        "#map a.unit-link > g.unit.enemy[data-company='{feinde}'][data-x='6'][data-y='3']"
    ));
    assert!(
        token_title(feinde).starts_with("Feinde (infantry, Red)"),
        "{}",
        token_title(feinde)
    );
    check("04-enemy-in-sight");
    let r = a.act(&mut red, feinde, "move", json!({"path": [[7, 3], [8, 3]]}));
    assert_eq!(r.status, 200, "{}", r.body);
    let gone = format!("#map g.unit[data-company='{feinde}']");
    wait_until(10, "the enemy out of sight leaves the map", || {
        br.script(&format!("return !document.querySelector(\"{gone}\");")) == true
    });
    assert!(not_reloaded(&br));

    // A private message: the header's badge, which was not there.
    assert!(text_of("#messages-badge").is_empty());
    let r = a.say(&mut red, "blue_player", "Parley at the mill?");
    assert_eq!(r.status, 201, "{}", r.body);
    wait_until(10, "the messages' badge", || {
        text_of("#messages-badge") == "1"
    });
    // Its alert leads to the conversation.
    wait_until(10, "the message's alert", || {
        br.script("return document.getElementById('live-news').getAttribute('href');")
            == json!(format!("/worlds/{w}/messages?with=red_player"))
    });
    assert!(not_reloaded(&br));
    check("05-a-message");

    // An attack: the enemy steps into range and fires; the alert's badge and its sentence
    // beside the map, the losses in the list.
    let alerts = || text_of("#alerts-badge").parse::<i64>().unwrap_or(0);
    let alerts_before = alerts();
    let r = a.act(
        &mut red,
        feinde,
        "move",
        json!({"path": [[7, 3], [6, 3], [5, 3]]}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    br.find(&format!(
        "#map g.unit.enemy[data-company='{feinde}'][data-x='5']"
    ));
    let r = a.act(&mut red, feinde, "volley", json!({"target": ligne}));
    assert_eq!(r.status, 200, "{}", r.body);
    let event = r.json()["event_id"].as_i64().unwrap();
    wait_until(10, "the attack's alert", || {
        alerts() == alerts_before + 1 && !br.text("#live-news").is_empty()
    });
    let news = br.text("#live-news");
    assert!(news.contains("Feinde") || news.contains("Ligne"), "{news}");
    let href = br.script("return document.getElementById('live-news').getAttribute('href');");
    assert!(
        href.as_str()
            .unwrap()
            .ends_with(&format!("&report={event}")),
        "{href}"
    );
    let men = a.company(&mut blue, ligne)["men"].as_i64().unwrap();
    wait_until(10, "the losses in the list", || {
        br.text(&men_css) == men.to_string()
    });
    assert!(not_reloaded(&br));
    check("06-attacked");

    // What the stream drew is what the server draws: every company's mark, against the same
    // view read again.
    let marks = br.script(
        "var f = document.querySelector('form.map-pick');\
         var x = new XMLHttpRequest(); x.open('GET', f.getAttribute('action') + '?' + new URLSearchParams(new FormData(f)), false); x.send();\
         var doc = new DOMParser().parseFromString(x.responseText, 'text/html');\
         var all = function (d) { return Array.from(d.querySelectorAll('#map g.unit')).map(function (u) { return u.parentNode.outerHTML; }).sort(); };\
         return [all(document), all(doc)];",
    );
    assert_eq!(
        marks[0], marks[1],
        "the live marks differ from the server's"
    );
    assert_eq!(marks[0].as_array().unwrap().len(), 2, "{}", marks[0]);

    // Nothing moved under the reader's eyes while the stream filled the page.
    let shift = br.script("return window.grognardShift;").as_f64().unwrap();
    assert!(shift < 0.05, "layout shift {shift} at {width}");

    // Hidden, the tab lets its stream go; an alert given meanwhile comes when it is shown
    // again, the stream resuming from where it was.
    // (The page's own `hidden` stands over the document's while the test says so.)
    let hide = |hidden: bool| {
        br.script(&format!(
            "Object.defineProperty(document, 'hidden', {{configurable: true, get: function () {{ return {hidden}; }}}});\
             document.dispatchEvent(new Event('visibilitychange'));\
             if (!{hidden}) delete document.hidden;\
             return null;"
        ));
    };
    // Red's own stream hears the volley's report in the batch that would have told Blue's
    // page: once it has, the hidden page had its chance to hear too.
    let reds = live::open(base, &a.red, w, None);
    assert_eq!(reds.status, 200, "{}", reds.body);
    reds.until("message", |_| true);
    hide(true);
    assert_eq!(live_state(&br), "off");
    let r = a.act(&mut red, feinde, "volley", json!({"target": ligne}));
    assert_eq!(r.status, 200, "{}", r.body);
    let volley = r.json()["event_id"].clone();
    reds.until("report", |d| d["id"] == volley);
    assert_eq!(alerts(), alerts_before + 1, "a hidden tab heard nothing");
    hide(false);
    wait_until(30, "the alert given while hidden", || {
        alerts() == alerts_before + 2 && live_state(&br) == "on"
    });
    assert!(not_reloaded(&br));

    // The alert's link shows its report beside the map, in place.
    br.click("#live-news");
    wait_until(10, "the report beside the map", || {
        text_of("#last-report").contains("Feinde")
    });
    assert!(not_reloaded(&br), "the report reloaded the page");
    wait_until(5, "the report in sight, clear of the live line", || {
        br.script(
            "var r = document.getElementById('last-report').getBoundingClientRect();\
             var l = document.getElementById('live').getBoundingClientRect();\
             var foot = window.innerWidth > 700 ? window.innerHeight : l.top;\
             return r.top >= 0 && r.top + 40 <= foot;",
        ) == true
    });
    assert_eq!(live_state(&br), "on", "the stream outlives the swap");
    assert!(!br.text("#live-news").is_empty());
    check("07-the-report");
    // The enemy's cell: on a phone its sheet stands on the live strip.
    br.script("document.getElementById('map').scrollIntoView({block: 'center'}); return null;");
    let (ex, ey) = cell_centre(&br, 5, 3);
    br.click_at(ex, ey);
    br.find("#cell-panel");
    check("08-enemy-cell");

    // The messages page, a conversation open: a new message shows in it.
    br.goto(&format!("{base}/worlds/{w}/messages?with=red_player"));
    br.find("#conversation[data-with]");
    assert!(br.text("#conversation").contains("Parley at the mill?"));
    br.script("window.grognardMark = 42; return null;");
    wait_until(30, "the messages page's stream", || live_state(&br) == "on");
    let r = a.say(&mut red, "blue_player", "Or at the bridge at noon");
    assert_eq!(r.status, 201, "{}", r.body);
    wait_until(10, "the new message in the conversation", || {
        text_of("#conversation").contains("Or at the bridge at noon")
    });
    // Read as it showed: the badge goes.
    wait_until(10, "the badge read away", || {
        text_of("#messages-badge").is_empty()
    });
    assert!(not_reloaded(&br), "the messages page was loaded again");
    check("09-messages");
}

both!(the_world_page_follows_the_world_live, |b| {
    following_the_world(b, 1280, 900);
});

both!(the_world_page_follows_the_world_live_on_a_phone, |b| {
    following_the_world(b, 390, 844);
});

/// The state the notifications switch shows, and its words.
fn push_state(br: &Browser) -> (String, String) {
    let v = br.script(
        "var b = document.getElementById('push'); \
         return b ? [b.getAttribute('data-state'), document.getElementById('push-state').textContent, b.getAttribute('data-sw')] : null;",
    );
    let sw = v[2].as_str().unwrap_or("");
    (
        format!(
            "{}{}",
            v[0].as_str().unwrap_or(""),
            if sw.is_empty() { "" } else { "+sw" }
        ),
        v[1].as_str().unwrap_or("").to_string(),
    )
}

/// Waits for the switch to show `want`, saying what it showed instead.
fn wait_push(br: &Browser, secs: u64, what: &str, want: &str) {
    let started = std::time::Instant::now();
    loop {
        let (state, words) = push_state(br);
        if state == want {
            return;
        }
        assert!(
            started.elapsed().as_secs() < secs,
            "{what}: {state} ({words}), not {want}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// "Notifications on this device": the switch registers the service worker and, in a browser
/// without a push service (headless Chromium has none), says so rather than pretending, in
/// English and French, on the account and alerts pages.
fn the_notifications_switch(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    fixtures::player(&app, "pusher");
    let base = &app.base;
    let shots = format!("screenshots-push-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    log_in(&br, base, "pusher");
    br.goto(&format!("{base}/account"));
    wait_push(&br, 10, "the service worker registers", "off+sw");
    assert_eq!(push_state(&br).1, "Off on this device.");
    br.script("document.getElementById('push').scrollIntoView();");
    br.screenshot("account-off");
    assert!(no_sideways_scroll(&br), "account at {width}");
    let switch_height = br
        .script(
            "return document.querySelector('#push label.switch').getBoundingClientRect().height;",
        )
        .as_f64()
        .unwrap();
    assert!(
        switch_height >= 44.0,
        "the switch is {switch_height} px high"
    );

    // Notifications allowed, but no push service: it says so, and the server keeps nothing.
    br.cdp(
        "Browser.grantPermissions",
        json!({"permissions": ["notifications"], "origin": base}),
    );
    br.click("#push-switch");
    wait_push(&br, 20, "the switch gives up", "failed+sw");
    assert_eq!(
        push_state(&br).1,
        "Notifications could not be turned on: this browser has no push service here."
    );
    assert_eq!(
        br.script("return document.getElementById('push-switch').checked;"),
        false
    );
    br.screenshot("account-failed");
    // The reminders' form below it carries this browser's offset from UTC.
    assert_eq!(
        br.script("return document.getElementById('utc-offset').value === String(-new Date().getTimezoneOffset());"),
        true
    );
    br.script("document.getElementById('reminders').scrollIntoView();");
    br.screenshot("account-reminders");
    assert!(no_sideways_scroll(&br), "reminders at {width}");
    assert_eq!(app.count("SELECT COUNT(*) FROM push_subscriptions"), 0);

    // Blocked in the browser: the switch says where to look.
    br.cdp(
        "Browser.setPermission",
        json!({"permission": {"name": "notifications"}, "setting": "denied", "origin": base}),
    );
    br.goto(&format!("{base}/alerts"));
    wait_push(&br, 10, "the alerts page's switch", "denied+sw");
    assert_eq!(
        push_state(&br).1,
        "Notifications are blocked for this site in the browser's settings."
    );

    // In French.
    br.cdp(
        "Browser.grantPermissions",
        json!({"permissions": ["notifications"], "origin": base}),
    );
    br.goto(&format!("{base}/lang/fr"));
    br.goto(&format!("{base}/alerts"));
    wait_push(&br, 10, "the switch in French", "off+sw");
    assert_eq!(push_state(&br).1, "Désactivées sur cet appareil.");
    br.click("#push-switch");
    wait_push(&br, 20, "the switch gives up in French", "failed+sw");
    assert_eq!(
        push_state(&br).1,
        "Impossible d'activer les notifications : ce navigateur n'a pas de service de push ici."
    );
    br.script("document.getElementById('push').scrollIntoView();");
    br.screenshot("alerts-fr-failed");
    assert!(no_sideways_scroll(&br), "alerts at {width}");
}

both!(the_notifications_switch_in_the_browser, |b| {
    the_notifications_switch(b, 1280, 900);
});

both!(the_notifications_switch_on_a_phone, |b| {
    the_notifications_switch(b, 390, 844);
});

/// A newcomer on the demo world, whose Russia the computer plays: the world page says so, and
/// once the bot's companies have marched for a few turns, a company of the newcomer's within
/// sight of one draws it on the map as an enemy, in the newcomer's browser.
fn meeting_the_computer(b: crate::support::Backend, width: u32, height: u32) {
    let app = TestApp::spawn(b);
    let world = grognard::ids::WorldId(1);
    grognard::game::bots::seat_demo(&mut app.conn(), world)
        .unwrap()
        .unwrap();
    let shots = format!("screenshots-bots-{b:?}-{width}x{height}").to_lowercase();
    let br = Browser::start_sized(&shots, width, height);
    let base = &app.base;
    br.goto(&format!("{base}/register"));
    br.type_into("#username", "nouvelle_recrue");
    br.type_into("#password", "a long enough password");
    br.click("form.stack button[type=submit]");
    br.find("form[action='/logout']");
    br.goto(&format!("{base}/worlds/1"));
    assert_eq!(br.text("#bots"), "Russia is played by the computer.");
    br.click("form[action='/worlds/1/join'] button");
    br.type_into("#raise-name", "Chasseurs");
    br.click("form.raise button");
    br.find("span.ap[data-company]");
    br.screenshot("01-joined");
    // Three turns as the scheduler gives them: the bot raises and marches after each.
    fixtures::bots_and_turns(&app, world, 3);
    let bot_company = app.count(
        "SELECT CAST(MIN(c.id) AS BIGINT) AS n FROM companies c JOIN players p ON p.id = c.player_id \
         JOIN users u ON u.id = p.user_id WHERE u.username = 'Russia-bot'",
    );
    let at = |c: &str| {
        app.count(&format!(
            "SELECT CAST({c} AS BIGINT) AS n FROM companies WHERE id = {bot_company}"
        )) as i32
    };
    let (bx, by) = (at("x"), at("y"));
    assert_ne!((bx, by), (37, 27), "the bot's company left its spawn");
    // The newcomer's company, set down next to it on ground it may stand on, where even
    // voltigeurs hidden in fields show (the two sides would take many turns to meet on their
    // own).
    let mine = app.count(
        "SELECT CAST(c.id AS BIGINT) AS n FROM companies c JOIN players p ON p.id = c.player_id \
         JOIN users u ON u.id = p.user_id WHERE u.username = 'nouvelle_recrue'",
    );
    let spot = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)]
        .into_iter()
        .map(|(dx, dy)| (bx + dx, by + dy))
        .find(|(x, y)| {
            app.count(&format!(
                "SELECT COUNT(*) FROM cells WHERE world_id = 1 AND x = {x} AND y = {y} \
                 AND terrain NOT IN ('river', 'mountain', 'wall', 'fortified_wall', 'tower', 'gate', \
                   'fort', 'fortifications', 'building', 'courtyard') \
                 AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.world_id = 1 AND c.x = {x} AND c.y = {y})"
            )) == 1
        })
        .expect("open ground near the bot's company");
    // Moved by a game master (the editor's call), so that whatever the server keeps of the
    // map hears of it as of any change.
    let mut gm = fixtures::gm_api(&app, "arbitre");
    let r = gm.json(
        "PATCH",
        &format!("/api/v1/companies/{mine}"),
        Some(json!({"x": spot.0, "y": spot.1})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    br.goto(&format!("{base}/worlds/1?company={mine}"));
    br.screenshot("02-met");
    let drawn = br.script("return Array.from(document.querySelectorAll('#map g.unit')).map(function(u){return u.getAttribute('data-company') + ':' + u.getAttribute('class');}).join(' ');");
    let class = unit_class(&br, bot_company);
    assert!(
        class.contains("enemy"),
        "the bot's company {bot_company} at ({bx}, {by}), the newcomer's {mine} at {spot:?}, drawn: {drawn}"
    );
    assert!(
        no_sideways_scroll(&br),
        "the page scrolls sideways at {width}"
    );
}

both!(a_newcomer_meets_the_computers_companies, |b| {
    meeting_the_computer(b, 1280, 900);
});

both!(a_newcomer_meets_the_computers_companies_on_a_phone, |b| {
    meeting_the_computer(b, 390, 844);
});
