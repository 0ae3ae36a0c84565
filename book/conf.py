"""Sphinx's settings for one edition of the reading edition; book/build.py runs Sphinx with
BOOK_EDITION (en or zh) and BOOK_EXTRA (the files copied as they are) set."""

import os

edition = os.environ.get("BOOK_EDITION", "en")

project = "Anthropic Messages → chat template" if edition == "en" else "Anthropic Messages → 聊天模板"
author = "the tutorial's authors" if edition == "en" else "本教程的作者们"
copyright = "MIT licence" if edition == "en" else "MIT 许可证"
language = "en" if edition == "en" else "zh_CN"

extensions = ["myst_nb", "sphinx_copybutton", "book_extras"]
root_doc = "index"
exclude_patterns = []
suppress_warnings = ["myst.header", "misc.highlighting_failure", "myst.xref_missing"]

# The chapters' stored outputs are the book's: nothing is executed.
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no widget manager from a CDN: the playground is a static picture
nb_merge_streams = True
# The label of a folded set-up cell (the chapters' own hidden cells).
nb_code_prompt_show = "Show the code" if edition == "en" else "显示代码"
nb_code_prompt_hide = "Hide the code" if edition == "en" else "隐藏代码"
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "sphinx_book_theme"
html_title = project
html_static_path = ["_static"]
html_css_files = ["book.css"]
html_js_files = ["book.js"]
# A search result is its page's title only: snippets would fetch every hit's whole page, and
# quote folded answers (the index itself leaves answers and pictures out: book_extras.py).
html_show_search_summary = False
html_favicon = "_static/favicon.svg"
html_extra_path = [os.environ["BOOK_EXTRA"]] if os.environ.get("BOOK_EXTRA") else []
html_search_language = "zh" if edition == "zh" else "en"
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "article_header_end": ["edition-switch.html", "article-header-buttons.html"],
    "navigation_with_keys": False,
}
repository = os.environ.get("BOOK_REPOSITORY", "").strip()
if repository:  # owner/repo on GitHub: the header's repository button
    html_theme_options.update({"repository_url": f"https://github.com/{repository}", "use_repository_button": True})
templates_path = ["_templates"]
# Light or dark as the reader's system says; the header's button switches (the theme's dark mode).
html_context = {"default_mode": "auto"}
copybutton_exclude = ".linenos, .gp, .go"
