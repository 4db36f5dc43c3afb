//! Issue: a real browser. Headless Chromium registers, joins, raises a company, moves it by
//! clicking the map, sees its AP drop and reads the report; screenshots land in
//! `target/screenshots-<backend>/`.

use crate::both;
use crate::support::webdriver::Browser;
use crate::support::TestApp;

both!(a_new_player_plays_a_day_in_the_browser, |b| {
    let app = TestApp::spawn(b);
    let br = Browser::start(&format!("screenshots-{b:?}").to_lowercase());
    let base = &app.base;

    br.goto(&format!("{base}/register"));
    br.type_into("#username", "marie_louise");
    br.type_into("#password", "a long enough password");
    br.screenshot("01-register");
    br.click("form.stack button[type=submit]");
    br.find("form[action='/logout']");

    br.goto(&format!("{base}/worlds/1"));
    br.find("select#nation");
    br.screenshot("02-join");
    br.click("form[action='/worlds/1/join'] button");
    br.type_into("#raise-name", "1er Grenadiers");
    br.click("form.raise button");
    let ap_css = "span.ap[data-company]";
    assert_eq!(br.text(ap_css), "24", "a fresh infantry company has 24 AP");
    assert!(br.url().contains("company="), "{}", br.url());
    br.screenshot("03-raised");

    // France spawns at (2, 2): click the cell two columns east, then "Move here".
    br.click("g.cell[data-x='4'][data-y='2'] rect.bg");
    br.find("#cell-panel");
    assert!(br
        .text("#cell-panel")
        .contains("Move cost this season: 1 AP"));
    br.screenshot("04-cell-selected");
    br.click("#move-here");
    br.find("#last-report");
    assert_eq!(br.text(ap_css), "22", "two plain steps cost 2 AP");
    assert!(br.text("#last-report").contains("moved to (4, 2) for 2 AP"));
    br.screenshot("05-moved");

    // The unit stands on the clicked cell now.
    assert!(br.source().contains("data-x=\"4\" data-y=\"2\"><circle"));

    br.goto(&format!("{base}/worlds/1/reports"));
    assert!(br
        .text("main")
        .contains("1er Grenadiers moved to (4, 2) for 2 AP"));
    let shot = br.screenshot("06-reports");
    assert!(std::fs::metadata(shot).unwrap().len() > 1000);
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
    assert!(br.text("#editor-status").contains("saved 1 cell"));
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
});
