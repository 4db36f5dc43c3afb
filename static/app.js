// Small enhancements: a live countdown to the next turn, building a path by clicking the map,
// the world page updated in place (selecting a cell, giving an order) instead of reloaded,
// with the map kept where it was, and following the world as it moves (the live stream).
// Every page works without this file.
(function () {
  "use strict";

  var timers = [];
  var latest = 0;

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  // The page's words with their {placeholders} filled from `values` (one without a value stays).
  function fill(words, values) {
    return (words || "").replace(/\{(\w+)\}/g, function (all, k) {
      return values[k] === undefined || values[k] === null ? all : String(values[k]);
    });
  }

  function countdowns() {
    timers.forEach(clearInterval);
    timers = [];
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var at = el.getAttribute("data-deadline");
      if (!at) return; // no turn due
      var deadline = Number(at) * 1000;
      // The words come with the element, in the page's language: {h}, {m} and {s} stand for
      // the numbers. Once the time is up the server is playing the turn: the element says so
      // until the page hears of the new one.
      function tick() {
        var s = Math.round((deadline - Date.now()) / 1000);
        if (s <= 0) {
          el.textContent = el.getAttribute("data-due") || "";
          return;
        }
        var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
        el.textContent = fill(el.getAttribute(h > 0 ? "data-hours" : "data-minutes"), { h: h, m: m, s: s % 60 });
      }
      tick();
      timers.push(setInterval(tick, 1000));
    });
  }

  function pathMode() {
    var mode = document.getElementById("path-mode");
    return mode && mode.checked ? mode : null;
  }

  function showScriptParts() {
    document.querySelectorAll(".js-only").forEach(function (e) { e.hidden = false; });
    var clear = document.getElementById("path-clear");
    if (clear) clear.hidden = false;
    // The image button that takes clicks without JavaScript: cells answer them here.
    document.querySelectorAll(".map-wrap input.pick").forEach(function (e) { e.remove(); });
  }

  // The map's scroll box shows the selected cell or company (or the player's first company)
  // in its middle: on a narrow screen the map is wider than its box.
  function centreMap() {
    var wrap = document.querySelector(".map-wrap");
    if (!wrap) return;
    var target = document.querySelector("#map g.unit.selected, #map g.cell.selected, #map g.unit.mine");
    if (!target || !target.getBBox) return;
    var b = target.getBBox();
    wrap.scrollLeft = Math.max(0, b.x + b.width / 2 - wrap.clientWidth / 2);
    wrap.scrollTop = Math.max(0, b.y + b.height / 2 - wrap.clientHeight / 2);
  }

  function narrow() {
    return window.innerWidth < 600;
  }

  // The room the map has on this screen: the width of its column, the height of the window
  // below the map's top (rounded, so that a few pixels do not make a new view).
  function rememberSpace() {
    var wrap = document.querySelector(".map-wrap");
    if (!wrap || narrow()) return;
    var col = wrap.parentNode.closest(".main") || wrap.parentNode;
    var top = wrap.getBoundingClientRect().top + window.scrollY;
    var w = Math.floor((col.clientWidth - 2) / 20) * 20;
    var h = Math.max(300, Math.floor((window.innerHeight - Math.min(top, 160) - 24) / 20) * 20);
    document.cookie = "grognard_space=" + w + "x" + h + "; max-age=31536000; path=/; SameSite=Lax";
  }

  // On a phone the map is wider than its box: shadows on the sides where more of it lies
  // say so, and go as the player scrolls there.
  function scrollCue() {
    var wrap = document.querySelector(".map-wrap");
    if (!wrap) return;
    function mark() {
      var c = wrap.classList;
      c.toggle("more-left", wrap.scrollLeft > 2);
      c.toggle("more-right", wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 2);
      c.toggle("more-up", wrap.scrollTop > 2);
      c.toggle("more-down", wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 2);
    }
    wrap.addEventListener("scroll", mark, { passive: true });
    mark();
  }

  // On a phone the map's box scrolls over the window the server drew: a finger that takes it
  // to an edge with more world beyond goes on there, the next window that way drawn in place
  // (the panning link of that side) with the cells under the finger kept where they were.
  // Only a drag the player made counts, towards the edge: scrolling by the page itself, or a
  // box left at an edge by the last window, pans nothing.
  function panAtEdges() {
    var wrap = document.querySelector(".map-wrap");
    if (!wrap || !document.querySelector("form.map-pick")) return;
    var touched = 0, timer = null;
    // Which way the player's drag moved the box since it began: -1, 0 or 1, across and down.
    var way = [0, 0], was = [wrap.scrollLeft, wrap.scrollTop];
    var mark = function (ev) {
      if (ev.type !== "touchmove") way = [0, 0];
      touched = Date.now();
    };
    ["touchstart", "touchmove", "wheel"].forEach(function (e) {
      wrap.addEventListener(e, mark, { passive: true });
    });
    wrap.addEventListener("scroll", function () {
      var now = [wrap.scrollLeft, wrap.scrollTop];
      [0, 1].forEach(function (i) { if (now[i] !== was[i]) way[i] = now[i] > was[i] ? 1 : -1; });
      was = now;
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (!narrow() || Date.now() - touched > 1500) return;
        if (document.body.classList.contains("loading")) return;
        var across = wrap.scrollWidth > wrap.clientWidth, down = wrap.scrollHeight > wrap.clientHeight;
        var at = {
          west: across && way[0] < 0 && wrap.scrollLeft <= 0,
          east: across && way[0] > 0 && wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1,
          north: down && way[1] < 0 && wrap.scrollTop <= 0,
          south: down && way[1] > 0 && wrap.scrollTop + wrap.clientHeight >= wrap.scrollHeight - 1
        };
        // The box may lie at two edges, one of them the world's: the other one goes on.
        var side = null, link = null;
        Object.keys(at).forEach(function (s) {
          var a = at[s] && !link && document.querySelector('.pan a[data-pan="' + s + '"]');
          if (a) { side = s; link = a; }
        });
        var g = layout();
        if (!link || !g) return;
        // The next window starts at the first column (row) in the box going east (south),
        // ends at the last one going west (north): what the box shows stays drawn, and the
        // box can be scrolled to keep it in place. The server puts a window's first column
        // (cols - 1) / 2 before its centre.
        var first = [g.x0 + Math.floor(wrap.scrollLeft / g.cell), g.y0 + Math.floor(wrap.scrollTop / g.step)];
        var last = [g.x0 + Math.floor((wrap.scrollLeft + wrap.clientWidth - 1) / g.cell),
          g.y0 + Math.floor((wrap.scrollTop + wrap.clientHeight - 1) / g.step)];
        var half = [Math.floor((g.cols - 1) / 2), Math.floor((g.rows - 1) / 2)];
        var url = new URL(link.href);
        if (side === "east") url.searchParams.set("x", first[0] + half[0]);
        if (side === "west") url.searchParams.set("x", last[0] - g.cols + 1 + half[0]);
        if (side === "south") url.searchParams.set("y", first[1] + half[1]);
        if (side === "north") url.searchParams.set("y", last[1] - g.rows + 1 + half[1]);
        touched = 0;
        swap(url.toString(), null, true, true);
      }, 200);
    }, { passive: true });
  }

  // Whether the selected company (or the player's first) shows inside the map's box.
  function unitInView() {
    var wrap = document.querySelector(".map-wrap");
    var unit = document.querySelector("#map g.unit.selected, #map g.unit.mine");
    if (!wrap || !unit) return true;
    var w = wrap.getBoundingClientRect(), u = unit.getBoundingClientRect();
    return u.left >= w.left && u.right <= w.right && u.top >= w.top && u.bottom <= w.bottom;
  }

  // A link of the world page's view (the map's form carries it) with a company in hand and a
  // cell picked, written as the server writes its links.
  function viewHref(form, company, cell) {
    var f = form.elements;
    var s = form.getAttribute("action") + "?x=" + f.x.value + "&y=" + f.y.value + "&zoom=" + f.zoom.value;
    if (company) s += "&company=" + company;
    if (cell) s += "&cell=" + cell;
    return s;
  }

  // The company in hand on the world page, if any.
  function inHand(form) {
    return form.elements.company ? form.elements.company.value : null;
  }

  // The page a click on a cell leads to: the view with the cell added.
  function cellUrl(form, x, y) {
    return viewHref(form, inHand(form), x + "," + y);
  }

  // Scrolls the window so that the map's box `wrap` starts at the top of the screen.
  function mapToTop(wrap) {
    window.scrollTo(0, window.scrollY + wrap.getBoundingClientRect().top - 4);
  }

  // Fetches a page of this site and puts its content in place of this one's, keeping the
  // map's scroll and the window's; anything else than a world page is simply opened. `panned`:
  // the map went on past its edge, and the cells under the eyes stay where they were.
  function swap(url, init, push, panned) {
    var before = panned && layout() ? Object.assign({}, layout()) : null;
    var y = window.scrollY;
    var mine = ++latest;
    document.body.classList.add("loading");
    return fetch(url, init || { credentials: "same-origin" }).then(function (res) {
      // Only the latest request shows: an earlier one answering late must not undo it.
      if (mine !== latest) return;
      var ct = res.headers.get("content-type") || "";
      // A refusal is a page of its own at the order's address: shown here, not followed.
      var same = new URL(res.url).pathname === location.pathname || !res.ok;
      if (ct.indexOf("text/html") !== 0 || !same) {
        location.href = res.url;
        return;
      }
      if (!res.ok) push = false;
      return res.text().then(function (html) {
        if (mine !== latest) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var main = doc.querySelector("main.page");
        if (!main) { location.href = res.url; return; }
        // Where the map's box stands now: a finger may have gone on dragging it meanwhile.
        var wrap = document.querySelector(".map-wrap");
        var keep = wrap ? [wrap.scrollLeft, wrap.scrollTop] : null;
        document.querySelector("main.page").replaceWith(document.adoptNode(main));
        // The header too: its badges count what the new page has read.
        var header = doc.querySelector("header.top"), mineHeader = document.querySelector("header.top");
        if (header && mineHeader) mineHeader.replaceWith(document.adoptNode(header));
        document.title = doc.title;
        // The address follows the view without a history entry per tap: Back leaves the
        // world page at once.
        if (push !== false) history.replaceState(null, "", res.url);
        start(false);
        var w = document.querySelector(".map-wrap");
        if (w && keep) { w.scrollLeft = keep[0]; w.scrollTop = keep[1]; }
        window.scrollTo(0, y);
        var after = layout();
        if (w && before && after && after.cell === before.cell) {
          // The new window is drawn shifted: the box follows by as much.
          w.scrollLeft = keep[0] + (before.x0 - after.x0) * after.cell;
          w.scrollTop = keep[1] + (before.y0 - after.y0) * after.step;
          return;
        }
        if (!unitInView()) centreMap();
        // On a phone the map goes to the top of the screen when a cell is selected (its panel
        // is a sheet at the bottom) or when the map is out of sight (after an order given
        // below it): the player sees what the order did.
        if (w && narrow()) {
          var r = w.getBoundingClientRect();
          if (document.getElementById("cell-panel") || r.top < 0 || r.top > window.innerHeight / 2) {
            mapToTop(w);
          }
        } else if (w && init && init.method === "POST") {
          // An order given from low in the side column: the map comes back into sight, with
          // what the order did drawn on it.
          if (w.getBoundingClientRect().top < 0) mapToTop(w);
        }
      });
    }).catch(function () {
      location.href = url;
    }).finally(function () {
      document.body.classList.remove("loading");
    });
  }

  // The map's layout as the server draws it (the cells' size, the rows' step and shift, the
  // sides), carried by the page next to the map.
  function layout() {
    var el = document.getElementById("map-layout");
    // Read once a drawing: the live stream asks for it once a company.
    if (el !== layout.el) {
      layout.el = el;
      layout.g = el ? JSON.parse(el.textContent) : null;
    }
    return layout.g;
  }

  // The top left corner of the box of cell (x, y) in the drawing, as the server's geometry
  // places it.
  function cellOrigin(g, x, y) {
    return [(x - g.x0) * g.cell + ((y & 1) ? g.odd_shift : 0), (y - g.y0) * g.step];
  }

  // Whether cell (x, y) is in the drawing.
  function inView(g, x, y) {
    return x >= g.x0 && x < g.x0 + g.cols && y >= g.y0 && y < g.y0 + g.rows;
  }

  // The cell under a point of the map, worked out as the server does (the world page draws
  // plain cells with nothing on them as one ground, not one by one): of the cells that may
  // hold the point, the one whose centre is nearest.
  function cellAt(map, clientX, clientY) {
    var g = layout();
    if (!g || !g.cell) return null;
    var box = map.getBoundingClientRect();
    var scale = box.width / Number(map.getAttribute("width")) || 1;
    var px = (clientX - box.left) / scale, py = (clientY - box.top) / scale;
    if (px < 0 || py < 0 || px >= box.width / scale || py >= box.height / scale) return null;
    var row = Math.floor(py / g.step), col = Math.floor(px / g.cell), best = null;
    for (var j = row - g.reach[0]; j <= row; j++) {
      if (j < 0 || j >= g.rows) continue;
      for (var i = col - g.reach[1]; i <= col + g.reach[1]; i++) {
        if (i < 0 || i >= g.cols) continue;
        var o = cellOrigin(g, g.x0 + i, g.y0 + j);
        var dx = o[0] + g.centre[0] - px, dy = o[1] + g.centre[1] - py;
        var d = dx * dx + dy * dy;
        if (!best || d < best.d) best = { d: d, i: i, j: j, o: o };
      }
    }
    if (!best) return null;
    return { x: String(g.x0 + best.i), y: String(g.y0 + best.j), px: best.o[0], py: best.o[1], size: g.cell };
  }

  // An element of the map's drawing, its attributes given as name, value, name, value… in the
  // order the server writes them.
  function svgEl(name, attrs, text) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (var i = 0; i < attrs.length; i += 2) e.setAttribute(attrs[i], attrs[i + 1]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function markPath(map, cell) {
    map.appendChild(svgEl("rect", ["class", "path-mark", "x", cell.px, "y", cell.py, "width", cell.size, "height", cell.size]));
  }

  function onClick(ev) {
    if (!ev.target.closest) return;
    var map = ev.target.closest("#map");
    if (!map) {
      // The world page's own links (pan, zoom, companies, closing the panel) stay in place too.
      var a = ev.target.closest("main.page a[href]");
      var to = a && new URL(a.href, location.href);
      if (a && swappable() && !ev.ctrlKey && !ev.metaKey && !a.target &&
          to.origin === location.origin && to.pathname === location.pathname) {
        ev.preventDefault();
        var done = swap(a.href);
        // An alert's report shows beside the map, below it on a phone: it comes into sight.
        if (a.id === "live-news") {
          done.then(function () {
            var r = document.getElementById("last-report");
            if (r) r.scrollIntoView({ block: "nearest" });
          });
        }
      }
      return;
    }
    var form = map.closest("form.map-pick");
    if (!form) return; // the editor handles its own map
    var link = ev.target.closest("a");
    var cell = link ? null : cellAt(map, ev.clientX, ev.clientY);
    var input = document.getElementById("path");
    if (cell && pathMode() && input) {
      ev.preventDefault();
      input.value = (input.value.trim() + " " + cell.x + "," + cell.y).trim();
      markPath(map, cell);
      return;
    }
    if (link) {
      ev.preventDefault();
      swap(link.getAttribute("href"));
    } else if (cell) {
      ev.preventDefault();
      swap(cellUrl(form, cell.x, cell.y));
    }
  }

  // Pages whose forms and own links answer in place: the world page and the messages.
  function swappable() {
    return !!document.querySelector("form.map-pick, main.page [data-swap]");
  }

  // Orders and the panel's links of the world page go through `swap` too.
  function onSubmit(ev) {
    var form = ev.target;
    if (!swappable() || !form.closest("main.page")) return;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
    ev.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    if (ev.submitter && ev.submitter.name) body.append(ev.submitter.name, ev.submitter.value);
    swap(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString()
    });
  }

  // A company as the server draws it on the map (MapView::unit_svg): the same elements,
  // classes and attributes, so that the page's style, its clicks and its tests take both
  // alike. `marks` are the kinds' letters and figures and the tooltip's words.
  function companyMark(c, g, marks, form) {
    var kind = marks.kinds[c.kind];
    var o = cellOrigin(g, c.x, c.y), size = g.cell;
    var cx = o[0] + g.centre[0], cy = o[1] + g.centre[1];
    var map = document.getElementById("map");
    var selected = map && map.getAttribute("data-company") === String(c.id);
    var href = c.mine ? viewHref(form, c.id) : viewHref(form, inHand(form), c.x + "," + c.y);
    var a = svgEl("a", ["href", href, "class", "unit-link"]);
    var unit = svgEl("g", ["class", "unit " + (c.mine ? "mine" : c.friend ? "friend" : "enemy") +
      (selected ? " selected" : "") + (c.on_leave ? " leave" : ""),
      "data-company", c.id, "data-x", c.x, "data-y", c.y]);
    unit.appendChild(svgEl("circle", ["cx", cx, "cy", cy, "r", size * 0.4, "fill", c.color]));
    unit.appendChild(svgEl("text", ["x", cx, "y", cy + size * 0.15, "class", "unit-letter"], kind.letter));
    var title = c.name + " (" + kind.name + ", " + (marks.nations[c.nation] || c.nation) + ")";
    if (c.on_leave) title += " · " + marks.on_leave;
    if (c.mine) {
      // The bars: men against the kind's full strength, AP against its most, in whole percent.
      var pct = function (v, of) { return Math.min(100, Math.max(0, Math.trunc((v || 0) * 100 / Math.max(1, of)))); };
      var bx = cx - size * 0.4, by = cy - size * 0.5 + 1, bw = size * 0.8;
      unit.appendChild(svgEl("rect", ["class", "bar-bg", "x", bx, "y", by, "width", bw, "height", 4]));
      unit.appendChild(svgEl("rect", ["class", "bar-men", "x", bx, "y", by, "width", bw * pct(c.men, kind.full_strength) / 100, "height", 2]));
      unit.appendChild(svgEl("rect", ["class", "bar-ap", "x", bx, "y", by + 2, "width", bw * pct(c.ap, kind.max_ap) / 100, "height", 2]));
      title += " · " + fill(marks.figures, { men: c.men || 0, ap: c.ap || 0 });
    }
    unit.appendChild(svgEl("title", [], title));
    a.appendChild(unit);
    return a;
  }

  // Puts company `id`'s mark on the map in place of the one there (none: takes it away). A new
  // one goes where the server draws the companies: above the ground and the planned path,
  // under the ramparts, markers and panning edges (the town names lie under them).
  function placeMark(map, id, mark) {
    var unit = map.querySelector('g.unit[data-company="' + id + '"]');
    var old = unit && (unit.parentNode.matches("a.unit-link") ? unit.parentNode : unit);
    if (old && mark) old.replaceWith(mark);
    else if (old) old.remove();
    else if (mark) {
      map.insertBefore(mark, map.querySelector(":scope > path.rampart, :scope > g.marker, :scope > g.hit, :scope > a.pan-edge, :scope > rect.path-mark"));
    }
  }

  // The world as it moves (GET /api/v1/worlds/{w}/live, docs/api.md "The live stream"): a
  // player's pages follow the turn, their companies, what their nation sees, the badges and
  // the alerts without being loaded again. One stream a page load, kept across the in-place
  // swaps, closed while the tab is hidden and resumed from the last event it had.
  var live = {
    world: null, source: null, last: null, state: "", timer: null, failures: 0,
    companies: {}, alerts: {}, report: null, news: null, unread: null, line: null, words: null
  };
  // Seconds before trying again after the server refused the stream, one refusal after another.
  var RETRY = [5, 10, 30];

  // The world page's words for what the stream says (the turn line, the companies' marks).
  function liveWords() {
    var el = document.getElementById("live");
    if (el !== live.line) {
      live.line = el;
      var json = el && el.getAttribute("data-words");
      live.words = json ? JSON.parse(json) : null;
    }
    return live.words;
  }

  // The line's state (connecting, on, retry, off) in the page's words, and the latest news.
  function showLive() {
    var el = document.getElementById("live");
    if (!el) return;
    var state = document.getElementById("live-state"), news = document.getElementById("live-news");
    state.setAttribute("data-state", live.state);
    state.textContent = el.getAttribute("data-" + live.state) || "";
    news.textContent = live.news ? live.news.text : "";
    if (live.news) {
      news.setAttribute("href", newsHref(live.news));
      news.title = live.news.text;
    } else {
      news.removeAttribute("href");
    }
  }

  function setLive(state) {
    live.state = state;
    showLive();
  }

  // Where a report is read: on the world page in place, beside the map; elsewhere the reports.
  function reportHref(id) {
    var form = document.querySelector("form.map-pick");
    if (form && id) return viewHref(form, inHand(form)) + "&report=" + id;
    return "/worlds/" + live.world + "/reports" + (id ? "#report-" + id : "");
  }

  // Where an alert leads (its kinds: docs/api.md): a message to its conversation, the end of
  // the campaign to the result, a turn to come to the map, anything else to its report.
  function newsHref(n) {
    var w = "/worlds/" + live.world;
    if (n.kind === "message") return w + "/messages" + (n.from ? "?with=" + encodeURIComponent(n.from) : "");
    if (n.kind === "announcement") return w + "/messages";
    if (n.kind === "campaign_over") return w + "/standings#result";
    if (n.kind === "turn_soon") return w;
    return reportHref(n.report);
  }

  // Draws a company the stream told of on the world page's map, or takes it away (`gone`,
  // or out of the view). One the stream has not yet described (its first `company` comes
  // before its `seen`) stays as drawn.
  function drawCompany(c, gone) {
    var map = document.getElementById("map"), form = map && map.closest("form.map-pick");
    var words = liveWords(), g = layout();
    if (!form || !words || !g || !(gone || c.kind)) return;
    var shown = !gone && inView(g, c.x, c.y);
    placeMark(map, c.id, shown ? companyMark(c, g, words.marks, form) : null);
  }

  function bumpAlerts() {
    var link = document.getElementById("alerts-link");
    if (!link) return;
    var badge = document.getElementById("alerts-badge");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge";
      badge.id = "alerts-badge";
      badge.textContent = "0";
      link.append(" ", badge);
    }
    badge.textContent = String(Number(badge.textContent) + 1);
  }

  // The header's messages link, with its badge, is there while messages wait, as the server
  // writes it.
  function messagesBadge(n) {
    var link = document.getElementById("messages-link");
    if (!n) {
      if (link) link.remove();
      return;
    }
    var alerts = document.getElementById("alerts-link");
    if (!link && alerts) {
      link = document.createElement("a");
      link.href = "/messages";
      link.id = "messages-link";
      var badge = document.createElement("span");
      badge.className = "badge";
      badge.id = "messages-badge";
      link.append(document.getElementById("live").getAttribute("data-messages") + " ", badge);
      alerts.before(link);
    }
    var b = document.getElementById("messages-badge");
    if (b) b.textContent = String(n);
  }

  // A private message came: the messages page reads its conversations and the one open
  // again, not the form being written.
  function refreshTalk() {
    if (!document.getElementById("thread-list")) return;
    fetch(location.href, { credentials: "same-origin" }).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      ["thread-list", "conversation"].forEach(function (id) {
        var fresh = doc.getElementById(id), here = document.getElementById(id);
        if (fresh && here) here.replaceWith(document.adoptNode(fresh));
      });
    }).catch(function () {});
  }

  var heard = {
    turn: function (d) {
      var words = liveWords();
      var turn = document.getElementById("world-turn"), season = document.getElementById("world-season");
      if (turn && words) turn.textContent = fill(words.turn, { turn: d.turn });
      if (season && words && season.getAttribute("data-season") !== d.season) {
        season.setAttribute("data-season", d.season);
        season.textContent = words.seasons[d.season] || d.season;
        // What moves cost changed (the legend, the cell's panel): the page is drawn again.
        if (document.querySelector("form.map-pick")) swap(location.href, null, false);
      }
      var next = document.getElementById("next-turn");
      var countdown = next && next.querySelector(".countdown");
      if (countdown) {
        var at = d.next_turn_at ? String(Math.round(Date.parse(d.next_turn_at) / 1000)) : "";
        countdown.setAttribute("data-deadline", at);
        next.hidden = !at;
        countdowns();
      }
    },
    world: function (d) {
      var words = liveWords(), el = document.getElementById("world-state");
      if (!el || !words) return;
      el.textContent = "";
      if (d.status === "running") return;
      var say = document.createElement("strong");
      say.textContent = d.status === "ended" ? words.ended : words.paused;
      el.append(" · ", say);
    },
    company: function (d) {
      var c = live.companies[d.id] = Object.assign(live.companies[d.id] || {}, d);
      document.querySelectorAll('[data-company="' + d.id + '"][data-say]').forEach(function (el) {
        el.textContent = fill(el.getAttribute("data-say"), d);
      });
      drawCompany(c);
    },
    seen: function (d) {
      // A long `seen` comes in pieces, all but the last with `more`.
      var listed = live.listed || (live.listed = {});
      d.companies.forEach(function (s) {
        listed[s.id] = true;
        drawCompany(live.companies[s.id] = Object.assign(live.companies[s.id] || {}, s));
      });
      d.gone.forEach(function (id) {
        delete live.companies[id];
        drawCompany({ id: id }, true);
      });
      if (d.more) return;
      live.listed = null;
      if (!d.all) return;
      // Everything the nation sees: anything else shown goes.
      Object.keys(live.companies).forEach(function (id) {
        if (!listed[id]) delete live.companies[id];
      });
      var map = document.getElementById("map");
      if (map) map.querySelectorAll("g.unit[data-company]").forEach(function (u) {
        var id = u.getAttribute("data-company");
        if (!listed[id]) drawCompany({ id: id }, true);
      });
    },
    report: function (d) {
      live.report = { id: d.id, at: Date.now() };
    },
    alert: function (d) {
      // A resumed stream may say an alert again.
      if (live.alerts[d.id]) return;
      live.alerts[d.id] = true;
      if (!d.read_at) bumpAlerts();
      // The report it comes with, when one just came (an attack's, a lost cell's).
      var report = live.report && Date.now() - live.report.at < 10000 ? live.report.id : null;
      var said = (d.said && d.said[0] && d.said[0].a) || {};
      live.news = { text: d.summary, kind: d.kind, report: report, from: said.player };
      showLive();
    },
    message: function (d) {
      var before = live.unread;
      live.unread = d.unread;
      messagesBadge(d.unread);
      if (before !== null && d.unread > before) refreshTalk();
    },
    resync: function () {
      location.reload();
    }
  };

  function openLive() {
    clearTimeout(live.timer);
    live.timer = null;
    if (live.source || document.hidden) return;
    // EventSource sends Last-Event-ID only when it reconnects by itself: a new one says where
    // it resumes from in the address.
    var source = new EventSource("/api/v1/worlds/" + live.world + "/live" +
      (live.last ? "?from=" + encodeURIComponent(live.last) : ""));
    live.source = source;
    setLive(live.failures ? "retry" : "connecting");
    source.onopen = function () {
      live.failures = 0;
      setLive("on");
    };
    source.onerror = function () {
      if (source.readyState !== EventSource.CLOSED) {
        setLive("retry"); // the browser reconnects by itself
        return;
      }
      // Refused (too many streams, the session gone…): EventSource gives up; try again later,
      // less and less often.
      closeLive("off");
      live.timer = setTimeout(openLive, RETRY[Math.min(live.failures, RETRY.length - 1)] * 1000);
      live.failures++;
    };
    Object.keys(heard).forEach(function (name) {
      source.addEventListener(name, function (ev) {
        if (source !== live.source) return;
        if (ev.lastEventId) live.last = ev.lastEventId;
        var data;
        try { data = JSON.parse(ev.data); } catch (e) { return; }
        heard[name](data);
      });
    });
  }

  function closeLive(state) {
    if (live.source) live.source.close();
    live.source = null;
    setLive(state);
  }

  // The stream opens with the first page of a player of the world (the page carries #live)
  // and stays open across the swaps, whose new line is told the state.
  function startLive() {
    var el = document.getElementById("live");
    if (!el) return;
    if (live.world) {
      showLive();
      return;
    }
    live.world = el.getAttribute("data-world");
    var away = function () {
      clearTimeout(live.timer);
      closeLive("off");
    };
    var back = function () {
      live.failures = 0;
      openLive();
    };
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) away();
      else back();
    });
    // A page left for another may be kept to come back to (the back-forward cache): its
    // stream goes with it, or it would hold one of the player's few streams while out of sight.
    window.addEventListener("pagehide", away);
    window.addEventListener("pageshow", function (ev) {
      if (ev.persisted) back();
    });
    openLive();
  }

  function start(first) {
    countdowns();
    showScriptParts();
    startLive();
    var clear = document.getElementById("path-clear");
    if (clear) {
      clear.addEventListener("click", function () {
        var input = document.getElementById("path");
        if (input) input.value = "";
        document.querySelectorAll("#map .path-mark").forEach(function (r) { r.remove(); });
      });
    }
    scrollCue();
    panAtEdges();
    if (!first) return;
    // The server opens the next pages of a narrow screen on the nearest zoom, and on a wider
    // one draws as many cells as the map has room for (from the next page on: this one is
    // not drawn again, which would shift it under the reader's eyes).
    // Written only when it changes: a page whose cookies change while it loads is kept out of
    // the browser's back-forward cache.
    if (narrow() !== /(?:^|;\s*)grognard_narrow=1/.test(document.cookie)) {
      document.cookie = "grognard_narrow=" + (narrow() ? "1; max-age=31536000" : "; max-age=0") + "; path=/; SameSite=Lax";
    }
    rememberSpace();
    window.addEventListener("resize", rememberSpace);
    // A phone opened on a picked cell (a link to a place, the standings' sections): the map
    // goes to the top of the screen, above the cell's sheet, as after a tap on the map.
    var wrap = document.querySelector(".map-wrap");
    if (narrow() && wrap && document.getElementById("cell-panel")) mapToTop(wrap);
    centreMap();
    // A phone opens on the nearest zoom, whose cells are big enough for a finger.
    var zoomed = new URLSearchParams(location.search).has("zoom");
    // (The zoom links only: the panning links carry a zoom too.)
    var near = document.querySelector('.pan a.zoom[data-zoom="3"]:not(.current)');
    if (narrow() && !zoomed && near) swap(near.href, null, "replace");
  }

  // Two fingers on the map: spreading them goes a zoom level nearer, pinching them a level
  // farther, centred on the cell between them. The server draws every zoom, so the gesture
  // follows the page's own zoom links (the map's box leaves pinching to this, see style.css).
  function pinch() {
    var from = null;
    function spread(t) {
      return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
    }
    document.addEventListener("touchstart", function (ev) {
      var onMap = ev.target.closest && ev.target.closest(".map-wrap");
      from = onMap && ev.touches.length === 2 && document.querySelector("form.map-pick")
        ? { d: spread(ev.touches), now: spread(ev.touches),
            x: (ev.touches[0].clientX + ev.touches[1].clientX) / 2,
            y: (ev.touches[0].clientY + ev.touches[1].clientY) / 2 }
        : null;
    }, { passive: true });
    document.addEventListener("touchmove", function (ev) {
      if (from && ev.touches.length === 2) from.now = spread(ev.touches);
    }, { passive: true });
    document.addEventListener("touchend", function () {
      if (!from || from.d < 1) { from = null; return; }
      var ratio = from.now / from.d, at = from;
      from = null;
      if (ratio > 1.25) zoomBy(1, at.x, at.y);
      else if (ratio < 0.8) zoomBy(-1, at.x, at.y);
    });
  }

  // The view one zoom level nearer (+1) or farther (-1), around the cell at a screen point.
  function zoomBy(step, x, y) {
    var form = document.querySelector("form.map-pick");
    var level = form && Number(form.elements.zoom.value) + step;
    var link = document.querySelector('.pan a.zoom[data-zoom="' + level + '"]');
    if (!link) return;
    var url = new URL(link.href);
    var map = document.getElementById("map");
    var cell = map && cellAt(map, x, y);
    if (cell) {
      url.searchParams.set("x", cell.x);
      url.searchParams.set("y", cell.y);
    }
    swap(url.toString());
  }

  // "Notifications on this device" (account and alerts pages): registers the service worker
  // that shows pushes, and subscribes this browser (or stops) as the player switches; says why
  // when it cannot. The server hears of the subscription on each visit: a rotated key or
  // another account logged in here ended or moved it there.
  function pushSwitch() {
    var box = document.getElementById("push");
    var input = document.getElementById("push-switch");
    var said = document.getElementById("push-state");
    if (!box || !input || !said) return;
    function show(state) {
      box.setAttribute("data-state", state);
      said.textContent = box.getAttribute("data-words-" + state) || "";
      input.checked = state === "on";
      input.disabled = state === "working" || state === "unsupported";
    }
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      show("unsupported");
      return;
    }
    var csrf = box.getAttribute("data-csrf") || "";
    function api(method, path, body) {
      return fetch(path, {
        method: method,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: body ? JSON.stringify(body) : undefined,
      }).then(function (res) {
        if (!res.ok) throw new Error(method + " " + path + ": " + res.status);
        return res.status === 204 ? null : res.json();
      });
    }
    function bytes(b64) {
      var text = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
      var out = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
      return out;
    }
    function serverKey() {
      return api("GET", "/api/v1/push/key").then(function (j) { return bytes(j.key); });
    }
    function sameKey(sub, key) {
      var had = sub.options && sub.options.applicationServerKey;
      if (!had) return true;
      had = new Uint8Array(had);
      if (had.length !== key.length) return false;
      for (var i = 0; i < key.length; i++) if (had[i] !== key[i]) return false;
      return true;
    }
    // A browser whose push service cannot be reached may never answer: it is given 10 s.
    function within(promise) {
      return Promise.race([promise, new Promise(function (_, fail) {
        setTimeout(function () { fail(new Error("no answer")); }, 10000);
      })]);
    }
    function subscribe(reg, key) {
      return within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }))
        .then(function (sub) { return api("POST", "/api/v1/push/subscriptions", sub.toJSON()); });
    }
    function turnOn(reg) {
      show("working");
      within(Promise.resolve(Notification.requestPermission()))
        .then(function (permission) {
          if (permission !== "granted") {
            show(permission === "denied" ? "denied" : "off");
            return;
          }
          return serverKey()
            .then(function (key) { return subscribe(reg, key); })
            .then(function () { show("on"); });
        })
        .catch(function () { show("failed"); });
    }
    function turnOff(reg) {
      show("working");
      reg.pushManager
        .getSubscription()
        .then(function (sub) {
          if (!sub) return;
          return api("GET", "/api/v1/push/subscriptions")
            .then(function (list) {
              return Promise.all(list.subscriptions.filter(function (s) {
                return s.endpoint === sub.endpoint;
              }).map(function (s) {
                return api("DELETE", "/api/v1/push/subscriptions/" + s.id);
              }));
            })
            .then(function () { return sub.unsubscribe(); });
        })
        .then(function () { show("off"); }, function () { show("off"); });
    }
    navigator.serviceWorker
      .register("/static/sw.js", { scope: "/static/" })
      .then(function (reg) {
        box.setAttribute("data-sw", "registered");
        input.addEventListener("change", function () {
          if (input.checked) turnOn(reg);
          else turnOff(reg);
        });
        return reg.pushManager.getSubscription().then(function (sub) {
          if (!sub) {
            show(Notification.permission === "denied" ? "denied" : "off");
            return;
          }
          return serverKey()
            .then(function (key) {
              if (sameKey(sub, key)) return api("POST", "/api/v1/push/subscriptions", sub.toJSON());
              return sub.unsubscribe().then(function () { return subscribe(reg, key); });
            })
            .then(function () { show("on"); });
        });
      })
      .catch(function () {
        if (box.getAttribute("data-sw") !== "registered") show("unsupported");
        else show("failed");
      });
  }

  // The reminders' form sends this browser's offset from UTC, for its quiet hours.
  function utcOffset() {
    var field = document.getElementById("utc-offset");
    if (field) field.value = String(-new Date().getTimezoneOffset());
  }

  ready(function () {
    pushSwitch();
    utcOffset();
    pinch();
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    window.addEventListener("popstate", function () {
      if (document.querySelector("form.map-pick")) swap(location.href, null, false);
    });
    start(true);
    if (window.Grognard && window.Grognard.init) window.Grognard.init();
  });
})();
