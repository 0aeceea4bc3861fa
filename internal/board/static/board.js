// The board's live updates. The server pushes (server-sent events) the
// HTML of changed cards and sections, which the plans page puts in place,
// and the names of the pages whose other data changed ("pages"): a page
// named fetches its own content again and swaps it in. A form the person
// is filling in is never lost: it is kept in place of its counterpart in
// the new content, or the swap waits until the person leaves the form.
(function () {
  "use strict";
  var page = document.getElementById("page");
  if (!window.EventSource || !window.fetch || !page) return;
  var live = document.querySelector("[data-live]");
  var view = page.getAttribute("data-view");
  var url = page.getAttribute("data-page");

  function current() { return parseInt(document.body.getAttribute("data-board-version"), 10) || 0; }
  function setVersion(v) { if (v > current()) document.body.setAttribute("data-board-version", String(v)); }
  function parse(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  }

  // formKey names a form the same way in the old content and the new.
  function formKey(f) {
    if (f.hasAttribute("data-question")) return "q:" + f.getAttribute("data-question");
    if (f.hasAttribute("data-pivot")) return "p:" + f.getAttribute("data-pivot");
    if (f.hasAttribute("data-action")) {
      var a = f.querySelector('input[name="address"]');
      return "a:" + f.getAttribute("data-action") + ":" + (a ? a.value : "");
    }
    return null;
  }
  // busy: the form has the focus or a field the person changed.
  function busy(f) {
    if (f.contains(document.activeElement)) return true;
    var fields = f.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      var el = fields[i];
      if (el.tagName === "SELECT") {
        var def = 0;
        for (var j = 0; j < el.options.length; j++) if (el.options[j].defaultSelected) def = j;
        if (el.selectedIndex !== def) return true;
      } else if (el.type !== "hidden" && el.type !== "submit" && el.type !== "button" && el.value !== el.defaultValue) {
        return true;
      }
    }
    return false;
  }
  // swapKeeping runs replace (which puts next in place of old) with every
  // busy form of old moved into next in place of its counterpart, and gives
  // the focus back. A busy form with no counterpart goes to orphan(form),
  // or, when orphan is not given, nothing is swapped and it returns false.
  function swapKeeping(old, next, replace, orphan) {
    var moves = [], forms = old.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      if (!busy(forms[i])) continue;
      var key = formKey(forms[i]), twin = null;
      var cand = next.querySelectorAll("form");
      for (var j = 0; key && j < cand.length && !twin; j++) if (formKey(cand[j]) === key) twin = cand[j];
      if (!twin && !orphan) return false;
      moves.push([forms[i], twin]);
    }
    var focus = document.activeElement, start = null, end = null;
    try { start = focus.selectionStart; end = focus.selectionEnd; } catch (e) { /* not a text field */ }
    moves.forEach(function (m) { if (m[1]) m[1].replaceWith(m[0]); else orphan(m[0]); });
    replace();
    if (focus && focus !== document.activeElement && document.contains(focus)) {
      focus.focus({ preventScroll: true });
      try { if (start !== null) focus.setSelectionRange(start, end); } catch (e) { /* not a text field */ }
    }
    return true;
  }

  // The page's own content, fetched again.
  var fetching = false, again = false, waiting = null, pushed = 0;
  function outstanding() { return fetching || again || waiting !== null; }
  function refetch() {
    if (fetching) { again = true; return; }
    fetching = true;
    again = false;
    fetch(url, { headers: { "X-Board-Fragment": "1" }, credentials: "same-origin", cache: "no-store" })
      .then(function (res) {
        var v = parseInt(res.headers.get("X-Board-Version"), 10) || 0;
        return res.text().then(function (html) { apply(v, html); });
      })
      .catch(function () { /* the next push tries again */ })
      .then(function () {
        fetching = false;
        if (again) refetch();
        else if (!outstanding()) setVersion(pushed);
      });
  }
  function apply(v, html) {
    var next = parse(html);
    if (!swapKeeping(page, next, function () { page.replaceChildren(next); recount(); })) {
      waiting = [v, html]; // a busy form has no place in the new content yet
      return;
    }
    waiting = null;
    setVersion(v);
  }
  function retry() {
    if (waiting) setTimeout(function () { if (waiting) apply(waiting[0], waiting[1]); }, 0);
  }
  page.addEventListener("focusout", retry);
  page.addEventListener("input", retry);

  // The plans page: cards and sections.
  function recount() {
    page.querySelectorAll("section.doc .column").forEach(function (col) {
      var n = col.querySelector("h3 small");
      if (n) n.textContent = String(col.querySelectorAll(".card").length);
    });
    document.querySelectorAll("[data-count]").forEach(function (el) {
      el.textContent = String(page.querySelectorAll(".column-" + el.getAttribute("data-count") + " .card").length);
    });
  }
  // place puts card in col at its place in the document's order.
  function place(col, card) {
    var order = parseInt(card.getAttribute("data-order"), 10);
    var cards = col.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) {
      if (parseInt(cards[i].getAttribute("data-order"), 10) > order) { cards[i].before(card); return; }
    }
    col.appendChild(card);
  }
  function onCard(d) {
    page.querySelectorAll('.card[data-task="' + CSS.escape(d.address) + '"]').forEach(function (el) {
      var section = el.closest("section.doc");
      var next = parse(d.html).firstElementChild;
      var col = section && section.querySelector(".column-" + d.column);
      swapKeeping(el, next, function () {
        if (col && el.parentElement !== col) {
          el.remove();
          place(col, next);
        } else {
          el.replaceWith(next);
        }
      }, function (form) {
        // The new card has no such action: keep the person's form in it;
        // the task's status it carries makes a stale action CONFLICT.
        (next.querySelector(".actions") || next).appendChild(form);
      });
    });
    recount();
  }
  function onSection(d) {
    var el = document.getElementById(d.id);
    var next = parse(d.html);
    var first = next.firstElementChild;
    if (el) {
      var done = swapKeeping(el, next, function () {
        if (first) el.replaceWith(first); else el.remove();
      });
      if (!done) refetch(); // waits until the person leaves the form
    } else if (first) {
      var after = null;
      page.querySelectorAll("section.doc").forEach(function (s) { if (s.id < d.id) after = s; });
      if (after) after.after(first); else page.prepend(first);
    }
    recount();
  }

  var es = new EventSource("/events"), opened = false;
  es.addEventListener("open", function () {
    opened = true;
    if (live) live.hidden = false;
  });
  es.addEventListener("error", function () { if (live) live.hidden = true; });
  es.addEventListener("card", function (e) { if (view === "plans") onCard(JSON.parse(e.data)); });
  es.addEventListener("section", function (e) {
    var d = JSON.parse(e.data);
    if (d.id === "reload") { refetch(); return; } // pushes were lost: fetch the page
    if (view === "plans") onSection(d);
  });
  es.addEventListener("pages", function (e) {
    if (JSON.parse(e.data).indexOf(view) >= 0) refetch();
  });
  es.addEventListener("version", function (e) {
    var v = JSON.parse(e.data);
    if (opened) {
      // The first version of a connection: a page behind it (made before
      // the feed opened, or while it was down) fetches itself.
      opened = false;
      if (v > current()) refetch();
    }
    pushed = Math.max(pushed, v);
    if (!outstanding()) setVersion(pushed);
  });
})();

// Ages: a <time datetime> (since when a holder holds its task) shows how
// long ago that was ("3m ago"), with the moment itself as its title, kept
// up to date by the clock (every 15 s) and after every change of the page;
// nothing is fetched for it.
(function () {
  "use strict";
  function ago(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + "s ago";
    var m = Math.round(s / 60);
    if (m < 60) return m + "m ago";
    var h = Math.round(m / 60);
    return h < 48 ? h + "h ago" : Math.round(h / 24) + "d ago";
  }
  function ages() {
    var now = Date.now();
    document.querySelectorAll("time[datetime]").forEach(function (el) {
      var at = el.getAttribute("datetime"), t = Date.parse(at);
      if (isNaN(t)) return;
      var text = ago(now - t);
      if (el.textContent !== text) el.textContent = text;
      if (el.title !== at) el.title = at;
    });
  }
  ages();
  setInterval(ages, 15000);
  if (window.MutationObserver) {
    new MutationObserver(ages).observe(document.body, { childList: true, subtree: true });
  }
})();
