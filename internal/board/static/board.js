// The board's live updates: the server pushes the HTML of changed cards
// and sections (server-sent events); this script puts them in place.
(function () {
  "use strict";
  if (!window.EventSource) return;
  var live = document.querySelector("[data-live]");
  var es = new EventSource("/events");
  function swap(el, html) {
    if (!el) return false;
    var t = document.createElement("template");
    t.innerHTML = html;
    var next = t.content.firstElementChild;
    if (!next) { el.remove(); return true; }
    el.replaceWith(next);
    return true;
  }
  es.addEventListener("open", function () { if (live) live.hidden = false; });
  es.addEventListener("error", function () { if (live) live.hidden = true; });
  function recount(section) {
    section.querySelectorAll(".column").forEach(function (col) {
      var n = col.querySelector("h3 small");
      if (n) n.textContent = String(col.querySelectorAll(".card").length);
    });
  }
  es.addEventListener("card", function (e) {
    var d = JSON.parse(e.data);
    document.querySelectorAll('[data-task="' + CSS.escape(d.address) + '"]').forEach(function (el) {
      if (!el.classList.contains("card")) { el.setAttribute("data-stale", ""); return; }
      var section = el.closest("section.doc");
      var t = document.createElement("template");
      t.innerHTML = d.html;
      var next = t.content.firstElementChild;
      var col = section && section.querySelector(".column-" + d.column);
      if (col && el.parentElement !== col) {
        el.remove();
        col.appendChild(next);
      } else {
        el.replaceWith(next);
      }
      if (section) recount(section);
    });
  });
  es.addEventListener("section", function (e) {
    var d = JSON.parse(e.data);
    if (d.id === "reload") { location.reload(); return; }
    var el = document.getElementById(d.id);
    if (el) { swap(el, d.html); return; }
    if (!d.html || location.pathname !== "/") return;
    var main = document.querySelector("main");
    var t = document.createElement("template");
    t.innerHTML = d.html;
    var sections = main.querySelectorAll("section.doc");
    var after = null;
    sections.forEach(function (s) { if (s.id < d.id) after = s; });
    if (after) after.after(t.content); else main.prepend(t.content);
  });
  es.addEventListener("version", function (e) {
    var v = JSON.parse(e.data);
    var cur = parseInt(document.body.getAttribute("data-board-version"), 10) || 0;
    if (v > cur) document.body.setAttribute("data-board-version", String(v));
    if (location.pathname !== "/" && v > cur && document.querySelector("[data-stale]") === null) {
      // Pages other than the plans are not patched: mark them.
      document.body.setAttribute("data-changed", "");
    }
  });
})();
