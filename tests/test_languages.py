"""The languages: every catalogue complete and true to the English, the template up to date
with the code, and each page rendered in each language without an English text left.

The catalogues are checked with Babel, the library that keeps them (its extraction, its reader
and its own checks of a translation's values), not with code of ours.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from controller import languages
from controller.languages import LANGUAGES, _, every_language, localise, negotiate, using

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "controller" / "languages" / "layli.pot"
TRANSLATED = [language for language in LANGUAGES if language != languages.DEFAULT]
TAG = re.compile(r"<[^>]+>")
VALUE = re.compile(r"%\([a-z_]+\)[-#0 +]?\d*(?:\.\d+)?[sdfr]")


def read(path: Path, language: str | None = None):
    with open(path, "rb") as file:
        return read_po(file, locale=language)


def catalogue(language: str):
    return read(languages.catalogue_path(language), language)


def keys(messages) -> set:
    return {message.id if isinstance(message.id, str) else tuple(message.id)
            for message in messages if message.id}


def test_the_template_holds_every_text_of_the_code(tmp_path):
    fresh = tmp_path / "layli.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract",
                    "-F", str(ROOT / "controller" / "languages" / "babel.cfg"), "-k", "N_",
                    "--add-comments=TRANSLATORS:", "--no-wrap", "-o", str(fresh), "."],
                   cwd=ROOT, check=True, capture_output=True)
    now, kept = keys(read(fresh)), keys(read(TEMPLATE))
    assert now - kept == set(), "texts in the code but not in layli.pot: run pybabel extract " \
                                "(docs/translations.md)"
    assert kept - now == set(), "texts in layli.pot the code no longer has"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalogue_translates_every_text(language):
    template = keys(read(TEMPLATE))
    found = catalogue(language)
    assert keys(found) >= template, "pybabel update has not been run for %s" % language
    missing = [message.id for message in found if message.id and (
        not message.string or not all(message.string if isinstance(message.string, tuple)
                                      else [message.string]))]
    fuzzy = [message.id for message in found if message.id and message.fuzzy]
    assert missing == [], "%d texts not translated in %s" % (len(missing), language)
    assert fuzzy == [], "%d texts still to review (fuzzy) in %s" % (len(fuzzy), language)


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_values_and_the_markup(language):
    found = catalogue(language)
    assert [(message.id, errors) for message, errors in found.check()] == []
    for message in found:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            if not string:
                continue            # not translated yet: the test above says so
            # each value the English fills in, and no other (Babel's check allows fewer)
            assert sorted(set(VALUE.findall(string))) == sorted(set(VALUE.findall(ids[-1]))), (
                message.id, string)
            assert sorted(TAG.findall(string)) == sorted(TAG.findall(ids[0])), (message.id,
                                                                                   string)
            if any(path.endswith(".html") for path, _line in message.locations):
                # a template takes a translation as it is (it may hold the English's markup):
                # a quote or an ampersand of its own would break an attribute or the HTML
                for sign in '"&<>':
                    assert string.count(sign) <= ids[0].count(sign), (message.id, string)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_page_s_plural_rule_is_the_catalogue_s(language):
    # words.js picks the first form for 1 and the last for any other count
    rule = languages.translations(language).plural
    last = catalogue(language).num_plurals - 1
    assert [n for n in range(0, 1000000, 7) if rule(n) != (0 if n == 1 else last)] == []
    assert rule(1) == 0


def test_words_said_once_read_in_every_language():
    said = every_language(lambda: _("South"))
    assert said == "South" and localise(said, "it") == "Sud"
    assert localise({"a": [said]}, "tr") == {"a": ["Güney"]}
    assert languages.has_words({"a": [said]}) and not languages.has_words({"a": ["South", 1]})
    with using("so"):
        assert localise(said) == _("South") != "South"


def test_the_browser_s_language_or_the_picker_s_choice():
    assert negotiate(None, "tr-TR,tr;q=0.9,en-US;q=0.8") == "tr"
    assert negotiate(None, "de;q=0.9, it;q=0.8") == "it"
    assert negotiate("so", "it") == "so"
    assert negotiate("xx", None) == "en"
    assert negotiate(None, "q=;;,,") == "en"
    with pytest.raises(languages.LanguageError):
        with using("de"):
            pass


# --- the pages, rendered ------------------------------------------------------------------

class _Shown(HTMLParser):
    """The texts a rendered page shows a person: its text (not its scripts') and the titles,
    labels and placeholders of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._script = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._script += tag in ("script", "style")
        self.texts += [value for name, value in attrs
                       if name in ("title", "aria-label", "placeholder") and value]

    def handle_endtag(self, tag: str) -> None:
        self._script -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._script:
            self.texts.append(data)


def _english_left(page: str, language: str, sources: tuple[str, ...]) -> list[str]:
    """The English texts of `sources` (template files) that a page in `language` still
    shows, where the catalogue says otherwise (a text with markup is looked for without it)."""
    shown = _Shown()
    shown.feed(page)
    flat = " ".join(" ".join(shown.texts).split())
    left = []
    for message in catalogue(language):
        if not message.id or isinstance(message.id, tuple) or message.string == message.id:
            continue
        if not any(path.endswith(sources) for path, _line in message.locations):
            continue
        english = " ".join(TAG.sub(" ", message.id).split())
        if re.search(r"(?<!\w)%s(?!\w)" % re.escape(english), flat):
            left.append(english)
    return left


def _simulator_page(language: str) -> str:
    from simulator.ui.app import create_app
    with TestClient(create_app()) as client:
        client.cookies.set(languages.COOKIE, language)          # the picker's choice
        return client.get("/").text


def _companion_page(language: str) -> str:
    from controller.web import Publisher, create_app
    with TestClient(create_app(Publisher())) as client:
        return client.get("/?lang=" + language).text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_virtual_table_page_is_all_in_its_language(language):
    page = _simulator_page(language)
    assert '<html lang="%s">' % language in page
    assert 'value="%s" lang="%s" selected' % (language, language) in page
    assert _english_left(page, language, ("index.html", "languages.html")) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_companion_page_is_all_in_its_language(language):
    page = _companion_page(language)
    assert '<html lang="%s">' % language in page
    assert _english_left(page, language, ("companion.html", "languages.html")) == []


def test_the_browser_s_accept_language_chooses_when_nothing_was_picked():
    from simulator.ui.app import create_app
    with TestClient(create_app()) as client:
        page = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"}).text
        assert '<html lang="it">' in page
        client.cookies.set(languages.COOKIE, "tr")
        picked = client.get("/", headers={"Accept-Language": "it-IT"}).text
        assert '<html lang="tr">' in picked


def test_the_table_says_its_events_in_each_page_s_language():
    from simulator.ui.app import create_app
    with TestClient(create_app()) as client:
        # a page's WebSocket asks for the page's language (words.js)
        with client.websocket_connect("/ws?lang=it") as italian, \
                client.websocket_connect("/ws") as english:
            hello_it, hello_en = italian.receive_json(), english.receive_json()
            assert hello_it["legend"] != hello_en["legend"]
            italian.receive_json(), english.receive_json()      # the states
            italian.send_json({"action": "play", "pit": 3})
            said_it, said_en = italian.receive_json(), english.receive_json()
            assert said_en["players"] == ["South", "North"]
            assert said_it["players"] == ["Sud", "Nord"]
            assert said_it["status"] != said_en["status"]
            italian.send_json({"action": "hint"})          # while the move is sown
            for _message in range(1000):
                answer = italian.receive_json()
                if answer["type"] == "error":
                    break
            with using("it"):
                assert answer["message"] == _("a hint is for the start of a move")
            assert answer["message"] != "a hint is for the start of a move"


# --- the page in Chromium, as a player in each language sees it ----------------------------

SHOWN = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style")) continue;
    if (parent.checkVisibility() || parent.closest("option")) texts.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    for (const name of ["title", "aria-label"]) {
      if (el.getAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  return texts;
}"""


def _english_patterns(language: str) -> list[tuple[str, re.Pattern]]:
    """Each English text of the catalogue that reads otherwise in `language`, as a pattern
    (its values matching anything), leaving out texts made only of values and signs."""
    patterns = []
    for message in catalogue(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            if english in strings or len(re.findall(r"[A-Za-z]{2,}", VALUE.sub("", english))) < 1:
                continue
            if TAG.search(english):
                continue                # markup: the server-rendered check covers it
            pattern = re.escape(" ".join(english.split()))
            pattern = re.sub(r"%\\\([a-z_]+\\\)[-#0 +]?\d*(?:\\\.\d+)?[sdfr]", ".+?", pattern)
            patterns.append((english, re.compile(pattern)))
    return patterns


def _english_shown(texts: list[str], language: str) -> set[str]:
    patterns = _english_patterns(language)
    shown = set()
    for text in texts:
        text = " ".join(text.split()).rstrip(" .:")
        if not text:
            continue
        for english, pattern in patterns:
            if pattern.fullmatch(text):
                shown.add(english)
    return shown


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_virtual_table_in_chromium_has_no_english_left(browser, language):
    from simulator.ui.app import create_app
    from simulator.ui.server import start_in_thread
    app = create_app(seed=1)
    url, server, thread = start_in_thread(app)
    context = browser.new_context(locale=language, viewport={"width": 1300, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)                                  # the browser's language chooses
        page.wait_for_function("() => layli.state !== null")
        assert page.evaluate("document.documentElement.lang") == language
        shown = page.evaluate(SHOWN)
        version = page.evaluate("layli.version")
        page.keyboard.press("3")                        # South plays pit 3, sown for them
        page.wait_for_function("v => layli.version > v + 3", arg=version)
        shown += page.evaluate(SHOWN)
        page.locator("#simulation summary").click()     # the closed part, opened
        page.locator("#learn").click()                  # a lesson
        page.wait_for_function("() => layli.state.lesson !== null")
        shown += page.evaluate(SHOWN)
        assert _english_shown(shown, language) == set()
        # the picker: another language, kept for the next visit
        page.select_option("#language", "en")
        # (the reloaded page's <html lang> is there before its scripts have run)
        page.wait_for_function("() => document.documentElement.lang === 'en' && window.layli "
                               "&& layli.state !== null")
        assert page.locator("#way legend").inner_text() == "Way to play"
    finally:
        context.close()
        server.should_exit = True
        thread.join(5)
