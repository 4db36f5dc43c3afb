// Small enhancements: a live countdown to the next turn, building a path by clicking the map,
// and the world page updated in place (selecting a cell, giving an order) instead of reloaded,
// with the map kept where it was. Every page works without this file.
(function () {
  "use strict";

  var timers = [];
  var latest = 0;

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function countdowns() {
    timers.forEach(clearInterval);
    timers = [];
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var deadline = Number(el.getAttribute("data-deadline")) * 1000;
      // The words come with the element, in the page's language: {h}, {m} and {s} stand for
      // the numbers.
      function tick() {
        var s = Math.max(0, Math.round((deadline - Date.now()) / 1000));
        var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
        var words = el.getAttribute(h > 0 ? "data-hours" : "data-minutes") || "";
        el.textContent = words.replace("{h}", h).replace("{m}", m).replace("{s}", s % 60);
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

  // Whether the selected company (or the player's first) shows inside the map's box.
  function unitInView() {
    var wrap = document.querySelector(".map-wrap");
    var unit = document.querySelector("#map g.unit.selected, #map g.unit.mine");
    if (!wrap || !unit) return true;
    var w = wrap.getBoundingClientRect(), u = unit.getBoundingClientRect();
    return u.left >= w.left && u.right <= w.right && u.top >= w.top && u.bottom <= w.bottom;
  }

  // The page a click on a cell leads to: the view's form with the cell added.
  function cellUrl(form, x, y) {
    var params = new URLSearchParams(new FormData(form));
    params.set("cell", x + "," + y);
    return form.getAttribute("action") + "?" + params.toString();
  }

  // Fetches a page of this site and puts its content in place of this one's, keeping the
  // map's scroll and the window's; anything else than a world page is simply opened.
  function swap(url, init, push) {
    var wrap = document.querySelector(".map-wrap");
    var keep = wrap ? [wrap.scrollLeft, wrap.scrollTop] : null;
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
        if (!unitInView()) centreMap();
        // On a phone the map goes to the top of the screen when a cell is selected (its panel
        // is a sheet at the bottom) or when the map is out of sight (after an order given
        // below it): the player sees what the order did.
        if (w && narrow()) {
          var r = w.getBoundingClientRect();
          if (document.getElementById("cell-panel") || r.top < 0 || r.top > window.innerHeight / 2) {
            window.scrollTo(0, window.scrollY + r.top - 4);
          }
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
    return el ? JSON.parse(el.textContent) : null;
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
      var shift = ((g.y0 + j) & 1) ? g.odd_shift : 0;
      for (var i = col - g.reach[1]; i <= col + g.reach[1]; i++) {
        if (i < 0 || i >= g.cols) continue;
        var dx = i * g.cell + shift + g.centre[0] - px, dy = j * g.step + g.centre[1] - py;
        var d = dx * dx + dy * dy;
        if (!best || d < best.d) best = { d: d, i: i, j: j, shift: shift };
      }
    }
    if (!best) return null;
    return { x: String(g.x0 + best.i), y: String(g.y0 + best.j), px: best.i * g.cell + best.shift, py: best.j * g.step, size: g.cell };
  }

  function markPath(map, cell) {
    var r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    r.setAttribute("class", "path-mark");
    r.setAttribute("x", cell.px);
    r.setAttribute("y", cell.py);
    r.setAttribute("width", cell.size);
    r.setAttribute("height", cell.size);
    map.appendChild(r);
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
        swap(a.href);
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

  function start(first) {
    countdowns();
    showScriptParts();
    var clear = document.getElementById("path-clear");
    if (clear) {
      clear.addEventListener("click", function () {
        var input = document.getElementById("path");
        if (input) input.value = "";
        document.querySelectorAll("#map .path-mark").forEach(function (r) { r.remove(); });
      });
    }
    scrollCue();
    if (!first) return;
    // The server opens the next pages of a narrow screen on the nearest zoom, and on a wider
    // one draws as many cells as the map has room for (from the next page on: this one is
    // not drawn again, which would shift it under the reader's eyes).
    document.cookie = "grognard_narrow=" + (narrow() ? "1; max-age=31536000" : "; max-age=0") + "; path=/; SameSite=Lax";
    rememberSpace();
    window.addEventListener("resize", rememberSpace);
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

  ready(function () {
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
