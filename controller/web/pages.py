"""Pages in the reader's language: Jinja2 templates, the middleware that picks the language,
and the security headers every answer carries (host-only).

    pages = Pages(STATIC)                               # its templates, beside the shared ones
    app = Starlette(routes=[Route("/", pages.route("index.html"))],
                    middleware=page_middleware())

Every page of the project (the virtual table, the companion, the tournament's live, table and
arbiter pages) is an HTML template whose words are ``{{ _("...") }}``, rendered for each
request in the language `LanguageMiddleware` chose for it: the page's ``?lang=``, else the
language its picker stored in the ``layli-language`` cookie, else the browser's
Accept-Language (controller.languages.negotiate). WebSockets get the same choice, so a page's
live words match its text. Each page also carries, as JSON, the words its scripts say
(`controller.languages.page_words`), which ``/static/words.js`` reads, and the picker
(``languages.html``) that sets the cookie. `SecurityHeaders` adds a content security policy
(this server's scripts, styles and connections only; no frame around a page), nosniff and
no referrer to every HTTP answer (`page_middleware` gives both middlewares).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from controller.languages import (COOKIE, LANGUAGES, _, current, negotiate, ngettext,
                                  page_words, using)

SHARED = Path(__file__).parent / "static"       # languages.html and words.js


def request_language(scope: dict) -> str:
    """The language a request or WebSocket is answered in (see the module's docstring)."""
    asked = None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("lang"):
        asked = query["lang"][0]
    accept = None
    for name, value in scope.get("headers", ()):
        if name == b"cookie" and asked is None:
            cookie = SimpleCookie()
            try:
                cookie.load(value.decode("latin-1"))
            except Exception:           # a malformed cookie header: as if there were none
                continue
            if COOKIE in cookie:
                asked = cookie[COOKIE].value
        elif name == b"accept-language":
            accept = value.decode("latin-1")
    return negotiate(asked, accept)


def page_middleware() -> list:
    """What every app that serves pages runs its requests through: the reader's language and
    the security headers."""
    from starlette.middleware import Middleware
    return [Middleware(SecurityHeaders), Middleware(LanguageMiddleware)]


class LanguageMiddleware:
    """ASGI middleware: each HTTP request and WebSocket runs in its reader's language."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with using(request_language(scope)):
            await self.app(scope, receive, send)


# What every answer of a page's server says to the browser (issue 17): scripts, styles and
# connections from this server only, no frame around a page (an arbiter's page cannot be
# framed and clicked through), no guessing of a file's type, no address sent on to other sites.
# The pages have no inline script or style; the JSON of their words (words.html) is data, which
# the policy does not run.
SECURITY_HEADERS = (
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    """ASGI middleware: every HTTP answer carries `SECURITY_HEADERS` (a header the answer set
    itself is kept)."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS
                            if name not in present]
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, with_headers)


class Pages:
    """The HTML templates in `directory` (and the shared ones), rendered in the language in
    use."""

    def __init__(self, directory: Path) -> None:
        self.environment = Environment(
            loader=FileSystemLoader([str(directory), str(SHARED)]),
            autoescape=select_autoescape(["html"]),
            extensions=["jinja2.ext.i18n"])
        # newstyle: {{ _("%(n)d seeds", n=3) }} fills the values in and escapes them; a
        # {% trans %} block's text is taken with its lines joined (babel.cfg extracts it so)
        self.environment.policies["ext.i18n.trimmed"] = True
        self.environment.install_gettext_callables(_, ngettext, newstyle=True)

    def render(self, name: str, **values: Any) -> str:
        language = current()
        return self.environment.get_template(name).render(
            language=language, languages=LANGUAGES, page_words=page_words(language), **values)

    def response(self, name: str, headers: dict | None = None, **values: Any) -> HTMLResponse:
        # the same address reads differently by the cookie and the browser's languages: a
        # cache between must keep them apart
        headers = {"Vary": "Accept-Language, Cookie", **(headers or {})}
        return HTMLResponse(self.render(name, **values), headers=headers)

    def route(self, name: str, headers: dict | None = None) -> Callable:
        """An endpoint that answers with the page `name`."""
        async def endpoint(request: Request) -> HTMLResponse:
            return self.response(name, headers)
        return endpoint
