/* The reading edition's own script (book/README.md): small repairs and additions to the theme. */
(() => {
  "use strict";

  /* The sidebar buttons. pydata-sphinx-theme 0.20 and sphinx-book-theme 1.4 bind their
     handlers with document.querySelector(".primary-toggle"), which finds the header's hidden
     button, so the visible one (in the article's header) does nothing
     (pydata/pydata-sphinx-theme#2451, open). A click on any other such button is handed to
     the one that has the handlers: the drawer opens on a phone, the sidebar folds on a desktop. */
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".primary-toggle, .secondary-toggle");
    if (!button) return;
    const bound = document.querySelector(button.classList.contains("primary-toggle") ? ".primary-toggle" : ".secondary-toggle");
    if (!bound || bound === button) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    bound.click();
  }, true);

  /* The language switch keeps the reader's place: the section (by its position, the two
     editions' sections are the same ones in the same order) and the search query. */
  const sections = () => Array.from(document.querySelectorAll("main section[id]"));
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.book-edition-switch");
    if (!link) return;
    const url = new URL(link.href);
    if (location.pathname.endsWith("/search.html")) url.search = location.search;
    const here = decodeURIComponent(location.hash.slice(1));
    const index = sections().findIndex((section) => section.id === here);
    if (index > 0) url.hash = `book-section-${index}`;
    event.preventDefault();
    location.href = url.href;
  });

  const ready = (run) => (document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", run) : run());

  ready(() => {
    const asked = /^#book-section-(\d+)$/.exec(location.hash);
    if (asked) {
      const section = sections()[Number(asked[1])];
      if (section) {
        history.replaceState(null, "", `#${section.id}`);
        section.scrollIntoView();
      }
    }

    /* Tables, diagrams, code and stored outputs wider than the column scroll inside their own
       box: that box says so, and can be scrolled from the keyboard. */
    const label = document.documentElement.lang.startsWith("zh") ? "可左右滚动" : "scrolls sideways";
    const mark = () => {
      document.querySelectorAll(".pst-scrollable-table-container, .book-svg, .book-pg-editor, main pre").forEach((box) => {
        const wide = box.scrollWidth > box.clientWidth + 1;
        box.classList.toggle("book-scrolls", wide);
        if (wide && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
        if (box.classList.contains("pst-scrollable-table-container")) box.dataset.bookScrollCue = wide ? `↔ ${label}` : "";
      });
    };
    mark();
    addEventListener("resize", mark);
    document.addEventListener("toggle", mark, true); /* an answer fold opened: its tables and pictures */

    /* A diagram shrunk to the column: a tap shows it at full size (it then scrolls in its box). */
    document.querySelectorAll(".book-svg").forEach((box) => {
      const svg = box.querySelector("svg");
      if (!svg) return;
      box.setAttribute("tabindex", "0");
      box.title = document.documentElement.lang.startsWith("zh") ? "点按：原始大小 / 适应宽度" : "tap: full size / fit the column";
      const flip = () => { box.classList.toggle("book-svg-full"); mark(); };
      box.addEventListener("click", flip);
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); flip(); }
      });
    });
  });
})();
