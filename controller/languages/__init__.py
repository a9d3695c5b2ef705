"""The languages players read: English, Somali, Turkish and Italian (host-only).

    from controller.languages import _, ngettext, using
    with using("it"):
        _("South")                                     # "Sud"
        ngettext("%(n)d seed", "%(n)d seeds", 3) % {"n": 3}     # "3 semi"

Every word a player reads is written in English in the code, wrapped in `_` (or `ngettext`
where a number decides the form, `N_` where a text is only marked and translated later), and
looked up in the catalogue of the language in use: gettext's `.po` files beside this module,
``<language>/LC_MESSAGES/layli.po``, kept with Babel (docs/translations.md says how). The
language in use is a context variable: a web page's request or WebSocket sets it for what it
renders (`negotiate` picks it from the page's cookie or the browser's languages), `layli play`
from its ``--language`` or the environment. A text missing from a catalogue, or not yet
reviewed, reads in English.

Narration is made when an event happens and read later, perhaps by pages in different
languages: `every_language` makes it once per language into one `Words` (an English `str`
that also carries its translations), and `localise` picks one language out of a state before
it is sent. The variant names stay as their people write them: they are never translated.

The portable core (rules, guide, ...) has no words of its own for players beyond place names,
so nothing here runs on a Pico.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import io
from pathlib import Path
from typing import Any, Callable, Iterator

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

HERE = Path(__file__).parent
DOMAIN = "layli"
DEFAULT = "en"
# the languages offered, each named as its speakers write it (the picker shows these)
LANGUAGES: dict[str, str] = {
    "en": "English",
    "so": "Soomaali",
    "tr": "Türkçe",
    "it": "Italiano",
}
COOKIE = "layli-language"           # where a page keeps the language its player picked

_current: contextvars.ContextVar[str] = contextvars.ContextVar("layli_language", default=DEFAULT)
_loaded: dict[str, _gettext.NullTranslations] = {}
_page_words: dict[str, dict] = {}


class LanguageError(ValueError):
    """A language this project has no catalogue for."""


def catalogue_path(language: str) -> Path:
    """Where a language's catalogue is kept (English has none: the code's words are it)."""
    return HERE / language / "LC_MESSAGES" / (DOMAIN + ".po")


def _catalogue(language: str):
    with open(catalogue_path(language), "rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def translations(language: str) -> _gettext.NullTranslations:
    """The lookups of one language (its catalogue read once; a fuzzy entry, one not yet
    reviewed, is left out, so it reads in English)."""
    if language not in LANGUAGES:
        raise LanguageError("no catalogue for the language %r (there are: %s)"
                            % (language, ", ".join(LANGUAGES)))
    found = _loaded.get(language)
    if found is None:
        if language == DEFAULT:
            found = _gettext.NullTranslations()
        else:
            compiled = io.BytesIO()
            write_mo(compiled, _catalogue(language), use_fuzzy=False)
            compiled.seek(0)
            found = _gettext.GNUTranslations(compiled)
        _loaded[language] = found
    return found


def current() -> str:
    """The language in use here (this thread, task or request)."""
    return _current.get()


@contextlib.contextmanager
def using(language: str) -> Iterator[None]:
    """Speak `language` inside the block."""
    translations(language)              # refuse an unknown one before anything is said
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def use(language: str) -> None:
    """Speak `language` from now on in this context (a command's whole run)."""
    translations(language)
    _current.set(language)


def _(message: str) -> str:
    """`message` in the language in use."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that suits the number `n`, in the language in use."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for the catalogues and returns it as it is: it is translated where
    it is shown (with `_`)."""
    return message


class Words(str):
    """Words said once and read in any language: the English text, as a `str`, and its
    translations (`in_language`)."""

    __slots__ = ("_by_language",)

    def __new__(cls, by_language: dict[str, str]) -> "Words":
        words = super().__new__(cls, by_language[DEFAULT])
        words._by_language = by_language
        return words

    def in_language(self, language: str) -> str:
        return self._by_language.get(language, str(self))


def every_language(make: Callable[[], Any]) -> Any:
    """What `make()` returns, made in every language: its texts become `Words`. A dict,
    list or tuple is combined item by item (each language's result has the same shape)."""
    made = {}
    for language in LANGUAGES:
        with using(language):
            made[language] = make()
    return _combine(made)


def _combine(made: dict[str, Any]) -> Any:
    first = made[DEFAULT]
    if isinstance(first, str):
        texts = {language: str(value) for language, value in made.items()}
        return first if all(text == first for text in texts.values()) else Words(texts)
    if isinstance(first, dict):
        return {key: _combine({language: value[key] for language, value in made.items()})
                for key in first}
    if isinstance(first, (list, tuple)):
        items = [_combine({language: value[i] for language, value in made.items()})
                 for i in range(len(first))]
        return items if isinstance(first, list) else tuple(items)
    return first


def has_words(value: Any) -> bool:
    """Whether `value` holds any `Words` (a state of plain data reads the same in every
    language)."""
    if isinstance(value, Words):
        return True
    if isinstance(value, dict):
        return any(has_words(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_words(item) for item in value)
    return False


def localise(value: Any, language: str | None = None) -> Any:
    """`value` with every `Words` in it said in `language` (the one in use if None)."""
    language = language or _current.get()
    if isinstance(value, Words):
        return value.in_language(language)
    if isinstance(value, dict):
        return {key: localise(item, language) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [localise(item, language) for item in value]
    return value


def negotiate(asked: str | None = None, accept_language: str | None = None) -> str:
    """The language to speak to a page: `asked` (its picker's cookie, or ``?lang=``) if we
    have it, else the first of the browser's Accept-Language that we have, else English.

        >>> negotiate(None, "so-SO,so;q=0.9,en;q=0.8")
        'so'
        >>> negotiate("it", "tr")
        'it'
        >>> negotiate(None, "de-DE,fr;q=0.5")
        'en'
    """
    if asked and asked in LANGUAGES:
        return asked
    wanted = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag:
            wanted.append((-quality, position, tag.strip().lower()))
    for _q, _p, tag in sorted(wanted):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT


def environment_language(environ: dict[str, str] | None = None) -> str:
    """The language a terminal asks for (`layli play`): the first of LANGUAGE (a list, by
    colons), LC_ALL, LC_MESSAGES and LANG whose primary subtag we have, else English.

        >>> environment_language({"LANG": "tr_TR.UTF-8"})
        'tr'
        >>> environment_language({"LANG": "de_DE.UTF-8"})
        'en'
        >>> environment_language({"LANGUAGE": "de:it", "LC_ALL": "C", "LANG": "so_SO.UTF-8"})
        'it'
    """
    if environ is None:
        import os
        environ = dict(os.environ)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for tag in environ.get(name, "").split(":"):
            primary = tag.strip().lower()
            for separator in "_-.@":
                primary = primary.split(separator)[0]
            if primary in LANGUAGES:
                return primary
    return DEFAULT

def page_words(language: str) -> dict:
    """What a page's scripts say, in `language`: {"language": .., "words": {English:
    translation, or for a text with a number its forms}}. Only the texts found in scripts
    (``.js`` files) are sent; `_` and `ngettext` in controller/web/static/words.js read them.
    A script picks the first form for 1 and the last for any other count, which is each of
    our languages' gettext rule for every count below a million (tests/test_languages.py)."""
    found = _page_words.get(language)
    if found is None:
        words: dict[str, Any] = {}
        if language != DEFAULT:
            for message in _catalogue(language):
                if not message.id or message.fuzzy or not message.string:
                    continue
                if not any(path.endswith(".js") for path, _line in message.locations):
                    continue
                if message.pluralizable:
                    if all(message.string):
                        words[message.id[0]] = list(message.string)
                elif message.string:
                    words[message.id] = message.string
        found = _page_words[language] = {"language": language, "words": words}
    return found
