// Small enhancements: a live countdown to the next turn, and building a path by clicking the
// map. Every page works without this file.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function countdowns() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var deadline = Number(el.getAttribute("data-deadline")) * 1000;
      function tick() {
        var s = Math.max(0, Math.round((deadline - Date.now()) / 1000));
        var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
        el.textContent = "in " + (h > 0 ? h + " h " : "") + m + " min " + (s % 60) + " s";
      }
      tick();
      setInterval(tick, 1000);
    });
  }

  function pathBuilding() {
    var svg = document.getElementById("map");
    var mode = document.getElementById("path-mode");
    var input = document.getElementById("path");
    var clear = document.getElementById("path-clear");
    if (!svg || !mode || !input) return;
    document.querySelectorAll(".js-only").forEach(function (e) { e.hidden = false; });
    if (clear) clear.hidden = false;
    svg.addEventListener("click", function (ev) {
      if (!mode.checked) return;
      var link = ev.target.closest("a.cell-link");
      if (!link) return;
      ev.preventDefault();
      var cell = link.querySelector("g.cell");
      var step = cell.getAttribute("data-x") + "," + cell.getAttribute("data-y");
      input.value = (input.value.trim() + " " + step).trim();
      cell.classList.add("path");
    });
    if (clear) {
      clear.addEventListener("click", function () {
        input.value = "";
        document.querySelectorAll("g.cell.path").forEach(function (g) { g.classList.remove("path"); });
      });
    }
  }

  ready(function () {
    countdowns();
    pathBuilding();
    if (window.Grognard && window.Grognard.init) window.Grognard.init();
  });
})();
