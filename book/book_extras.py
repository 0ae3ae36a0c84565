"""What the reading edition adds to Sphinx: search that finds Chinese words, and on every page
the link to the same page in the other edition.

Search. Sphinx's Chinese search cuts text into words with jieba, which has no wheel (set-up
installs wheels only), and even with it a query is looked up whole, so "未带入" finds nothing
when jieba cut it into 未 / 带入. Here every run of CJK characters between punctuation is indexed
as one term, with its two-character pieces: Sphinx's search page finds a query of three or more
characters inside a run (its partial match) and a two-character query exactly. Latin words are
indexed as the edition's language does (English stemming).
"""

from __future__ import annotations

import os
import re

from sphinx.search import languages
from sphinx.search.en import SearchEnglish
from sphinx.search.zh import SearchChinese

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]+")
EDITIONS = ("en", "zh")


def cjk_terms(text: str) -> list[str]:
    """Each run of CJK characters, and its two-character pieces."""
    terms = []
    for run in CJK_RUN.findall(text):
        terms.append(run)
        terms.extend(run[i:i + 2] for i in range(len(run) - 1))
    return terms


class EnglishWithChinese(SearchEnglish):
    """English, and the Chinese in the chapters' outputs (the README example is in Chinese)."""

    def split(self, input: str) -> list[str]:
        return super().split(input) + cjk_terms(input)


class ChineseByRuns(SearchChinese):
    """Chinese without a dictionary: runs and their pieces (see the module's docstring)."""

    # Latin words are stemmed as English, and the page's JavaScript names its stemmer after
    # this: Sphinx 9.0's own "Chinese" asks for a ChineseStemmer that english-stemmer.js does
    # not define, and every page of a Chinese site then logs an error.
    language_name = "English"

    def split(self, input: str) -> list[str]:
        latin = [term.strip() for term in self.latin1_letters.findall(input)]
        self.latin_terms.update(latin)
        return cjk_terms(input) + latin

    def word_filter(self, word: str) -> bool:
        return bool(word) and not word.isdigit() and word not in self.stopwords


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
    languages["zh"] = ChineseByRuns
    app.add_config_value("book_edition", os.environ.get("BOOK_EDITION", "en"), "html")
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
