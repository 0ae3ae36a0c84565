"""What the reading edition adds to Sphinx: search that finds Chinese words (and leaves folded
answers and pictures out), and on every page the link to the same page in the other edition.

Search. Sphinx's Chinese search cuts text into words with jieba, which has no wheel (set-up
installs wheels only); and even with it a query is looked up whole, so "未带入" finds nothing
where jieba cut the text into 未 / 带入. Here, as many CJK search engines do, Chinese (and
Japanese kana) is indexed in overlapping two-character pieces, 未带入 as 未带 and 带入, and the
search page cuts a query the same way (`splitQuery` below): a page is found when it holds every
piece of the query. Latin words are indexed as the edition's language does (English stemming),
so identifiers such as tool_call_dict are found whole.
"""

from __future__ import annotations

import os
import re

from sphinx.search import languages
from sphinx.search.en import SearchEnglish
from sphinx.search.zh import SearchChinese

CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff"  # written the same in Python's re and JavaScript
CJK_RUN = re.compile(rf"([{CJK}]+)")
WORD = re.compile(r"\w+")
EDITIONS = ("en", "zh")

# The search page's query splitter: the index's cut (pieces()), in JavaScript. No "<", ">" or
# "&": Sphinx writes it into language_data.js as it would text.
SPLIT_QUERY = """
var splitQuery = (query) => {
  const cjk = /([%s]+)/u;
  const terms = [];
  query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu).forEach((word) => {
    word.split(cjk).forEach((part) => {
      if (!part) return;
      if (!cjk.test(part) || part.length === 1) { terms.push(part); return; }
      for (let i = 1; i !== part.length; i++) terms.push(part.slice(i - 1, i + 1));
    });
  });
  return terms;
};
""" % CJK


def pieces(text: str) -> list[str]:
    """The words of `text`, each CJK run in them cut into overlapping two-character pieces."""
    terms = []
    for word in WORD.findall(text):
        for part in CJK_RUN.split(word):
            if len(part) > 1 and CJK_RUN.fullmatch(part):
                terms.extend(part[i - 1:i + 1] for i in range(1, len(part)))
            elif part:
                terms.append(part)
    return terms


class EnglishWithChinese(SearchEnglish):
    """English, and the Chinese in the chapters' outputs (the README example is in Chinese)."""

    js_splitter_code = SPLIT_QUERY

    def split(self, input: str) -> list[str]:
        return pieces(input)


class ChineseByPieces(SearchChinese):
    """Chinese without a dictionary (see the module's docstring)."""

    js_splitter_code = SPLIT_QUERY
    # Latin words are stemmed as English, and the page's JavaScript names its stemmer after
    # this: Sphinx 9.0's own "Chinese" asks for a ChineseStemmer that english-stemmer.js does
    # not define, and every page of a Chinese site then logs an error.
    language_name = "English"

    def split(self, input: str) -> list[str]:
        terms = pieces(input)
        self.latin_terms.update(term for term in terms if not CJK_RUN.match(term))
        return terms

    def word_filter(self, word: str) -> bool:
        return bool(word) and not word.isdigit() and word not in self.stopwords


FOLD_OPENS, FOLD_CLOSES = 'class="book-answer"', "<!-- /book-answer -->"


def leave_out_of_search(app, doctree, docname: str) -> None:
    """What search must not find or quote: a folded answer (everything between an Answer fold's
    opening and closing, book/build.py's fold()) and the pictures (inline SVG: Graphviz's ids
    such as in_m1:e->out2:w are text in it). Sphinx's index skips an element with the class
    no-search. A raw HTML node itself is never given it (the HTML writer would wrap it in a
    <div> and break the fold's <details> apart): a picture's output box is marked instead."""
    from docutils import nodes

    folded = False
    for node in list(doctree.findall(nodes.Element)):
        if isinstance(node, nodes.raw):
            text = node.astext()
            if FOLD_OPENS in text:
                folded = True
            elif folded and FOLD_CLOSES in text:
                folded = False
            if ("<svg" in text or 'class="book-pg' in text) and not isinstance(node.parent, (nodes.section, nodes.document)):
                node.parent["classes"].append("no-search")
        elif folded and not isinstance(node, (nodes.section, nodes.document)):
            node["classes"].append("no-search")


def page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """`other_edition`: this page in the other edition (book/build.py points it at that
    edition's home page where there is no such page: the glossary is in Chinese only)."""
    edition = app.config.book_edition
    other = EDITIONS[1 - EDITIONS.index(edition)]
    up = "../" * pagename.count("/")
    context["other_edition"] = f"{up}../{other}/{pagename}.html"
    context["other_edition_label"] = "中文版" if edition == "en" else "English"
    context["other_edition_lang"] = "zh-CN" if other == "zh" else "en"


def setup(app):
    languages["en"] = EnglishWithChinese
    languages["zh"] = ChineseByPieces
    app.add_config_value("book_edition", os.environ.get("BOOK_EDITION", "en"), "html")
    app.connect("html-page-context", page_context)
    app.connect("doctree-resolved", leave_out_of_search)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
