// Small enhancements; every page works without this file.
(function () {
  "use strict";
  function ready(fn) { if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn); }
  ready(function () {
    if (window.Grognard && window.Grognard.init) window.Grognard.init();
  });
  window.Grognard = window.Grognard || {};
})();
