// The map editor: paint with a brush by clicking or dragging, fill rectangles, inspect cells,
// undo. Every change goes through the JSON API (PUT /api/v1/worlds/{w}/cells) with the
// session's CSRF token. Also: reading an uploaded file into the import form.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function fileReader() {
    var input = document.getElementById("map-file");
    var text = document.getElementById("map-text");
    if (!input || !text) return;
    input.addEventListener("change", function () {
      var f = input.files && input.files[0];
      if (!f) return;
      var r = new FileReader();
      r.onload = function () { text.value = r.result; };
      r.readAsText(f);
    });
  }

  function editor() {
    var root = document.getElementById("editor");
    var svg = document.getElementById("map");
    if (!root || !svg) return;
    var world = root.getAttribute("data-world");
    var csrf = root.getAttribute("data-csrf");
    // The page's language: its words come with the editor's element.
    var say = function (k) { return root.getAttribute("data-" + k) || ""; };
    // The map's layout and its grid's sides as the server draws and names them.
    var layout = JSON.parse(document.getElementById("map-layout").textContent);
    var status = document.getElementById("editor-status");
    var terrain = "forest";
    var down = null, painted = {}, batch = [];

    root.querySelectorAll(".palette button").forEach(function (b) {
      b.addEventListener("click", function () {
        root.querySelectorAll(".palette button").forEach(function (o) { o.classList.remove("active"); });
        b.classList.add("active");
        terrain = b.getAttribute("data-terrain");
      });
    });

    function cellAt(ev) {
      var g = ev.target.closest ? ev.target.closest("g.cell") : null;
      return g ? { x: +g.getAttribute("data-x"), y: +g.getAttribute("data-y"), g: g } : null;
    }
    function gAt(x, y) { return svg.querySelector("g.cell[data-x='" + x + "'][data-y='" + y + "']"); }

    function props(edit) {
      if (!document.getElementById("with-props").checked) return edit;
      var town = document.getElementById("prop-town").value.trim();
      var owner = document.getElementById("prop-owner").value;
      var structure = document.getElementById("prop-structure").value.trim();
      if (town) edit.town = town === "-" ? null : town;
      if (owner) edit.owner = owner === "-" ? null : owner;
      if (structure) edit.structure = structure === "-" ? null : Number(structure);
      return edit;
    }

    // Shows a terrain at once; the server's answer confirms or the page reloads.
    function show(g, t) {
      g.setAttribute("class", "cell t-" + t);
      var use = g.querySelector("use:not(.bg):not(.owner)");
      var bg = g.querySelector(".bg");
      if (t === "plain") { if (use) use.remove(); return; }
      if (!use) {
        use = document.createElementNS("http://www.w3.org/2000/svg", "use");
        // On hexes the square picture sits in the middle of its hexagon.
        use.setAttribute("x", bg.getAttribute("x"));
        use.setAttribute("y", Number(bg.getAttribute("y")) + layout.picture_dy);
        bg.after(use);
      }
      use.setAttribute("href", "#c-" + t);
    }

    function add(x, y) {
      var size = Number(document.getElementById("brush").value), r = (size - 1) / 2;
      for (var dy = -r; dy <= r; dy++) for (var dx = -r; dx <= r; dx++) {
        var key = (x + dx) + "," + (y + dy);
        var g = gAt(x + dx, y + dy);
        if (!g || painted[key]) continue;
        painted[key] = true;
        batch.push(props({ x: x + dx, y: y + dy, terrain: terrain }));
        show(g, terrain);
      }
    }

    function send(cells) {
      if (!cells.length) return;
      status.textContent = say("saving") + " " + cells.length + "…";
      fetch("/api/v1/worlds/" + world + "/cells", {
        method: "PUT",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ cells: cells })
      }).then(function (r) {
        return r.json().then(function (body) { return { ok: r.ok, body: body }; });
      }).then(function (res) {
        if (!res.ok) {
          status.textContent = say("refused") + " " + res.body.error.message;
          setTimeout(function () { location.reload(); }, 1500);
          return;
        }
        res.body.cells.forEach(function (c) { var g = gAt(c.x, c.y); if (g) show(g, c.terrain); });
        status.textContent = say("saved") + " " + res.body.cells.length;
        svg.setAttribute("data-saved", String(Number(svg.getAttribute("data-saved") || 0) + 1));
      }).catch(function () { status.textContent = say("silent"); });
    }

    svg.addEventListener("click", function (ev) {
      var link = ev.target.closest ? ev.target.closest("a.cell-link") : null;
      if (link && document.getElementById("tool").value !== "inspect") ev.preventDefault();
    });
    // Ramparts: a click near a side of a cell puts one there, or takes it off.
    var edges = {};
    (root.getAttribute("data-edges") || "").split(";").forEach(function (e) { if (e) edges[e] = true; });
    var across = function (x, y, side) {
      var d = side.across[y & 1];
      return [x + d[0], y + d[1]];
    };
    // Each edge under its one name, as the server keeps it.
    var canonical = function (x, y, side) {
      if (side.canonical) return x + "," + y + "," + side.name;
      var q = across(x, y, side);
      return q[0] + "," + q[1] + "," + side.opposite;
    };
    // The side of the cell whose middle is nearest the pointer.
    function sideAt(ev, g) {
      var box = g.querySelector(".bg").getBBox();
      var pt = svg.createSVGPoint();
      pt.x = ev.clientX; pt.y = ev.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      var best = null;
      layout.sides.forEach(function (side) {
        var dx = p.x - box.x - side.middle[0], dy = p.y - box.y - side.middle[1];
        var d = dx * dx + dy * dy;
        if (!best || d < best.d) best = { d: d, side: side };
      });
      return best.side;
    }
    function rampart(ev, c) {
      var side = sideAt(ev, c.g);
      var key = canonical(c.x, c.y, side);
      var on = !edges[key];
      status.textContent = say("saving-rampart") + " " + side.name;
      fetch("/api/v1/worlds/" + world + "/edges/" + c.x + "/" + c.y + "/" + side.name, {
        method: "PUT",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ feature: on ? "rampart" : null })
      }).then(function (r) {
        return r.json().then(function (body) { return { ok: r.ok, body: body }; });
      }).then(function (res) {
        if (!res.ok) { status.textContent = say("refused") + " " + res.body.error.message; return; }
        location.reload();
      }).catch(function () { status.textContent = say("silent"); });
    }

    svg.addEventListener("mousedown", function (ev) {
      var c = cellAt(ev);
      var tool = document.getElementById("tool").value;
      if (!c || tool === "inspect") return;
      if (tool === "rampart") { ev.preventDefault(); rampart(ev, c); return; }
      ev.preventDefault();
      down = c; painted = {}; batch = [];
      if (tool === "paint") add(c.x, c.y);
    });
    svg.addEventListener("mouseover", function (ev) {
      if (!down || document.getElementById("tool").value !== "paint") return;
      var c = cellAt(ev);
      if (c) add(c.x, c.y);
    });
    document.addEventListener("mouseup", function (ev) {
      if (!down) return;
      var tool = document.getElementById("tool").value;
      if (tool === "rect") {
        var c = cellAt(ev) || down;
        var x0 = Math.min(down.x, c.x), x1 = Math.max(down.x, c.x), y0 = Math.min(down.y, c.y), y1 = Math.max(down.y, c.y);
        for (var y = y0; y <= y1; y++) for (var x = x0; x <= x1; x++) {
          var g = gAt(x, y);
          if (!g) continue;
          batch.push(props({ x: x, y: y, terrain: terrain }));
          show(g, terrain);
        }
      }
      down = null;
      send(batch);
      batch = [];
    });

    document.getElementById("undo").addEventListener("click", function () {
      fetch("/api/v1/worlds/" + world + "/undo", {
        method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf }
      }).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
        .then(function (res) {
          if (!res.ok) { status.textContent = res.body.error.message; return; }
          location.reload();
        });
    });
  }

  ready(function () { fileReader(); editor(); });
})();
