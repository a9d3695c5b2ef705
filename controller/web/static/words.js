// The words a page's scripts say, in the page's language: `_("English text")` and
// `ngettext("one seed", "%(n)d seeds", n)`, with `fill("%(n)d seeds", {n: 3})` for the values.
// The server puts the page's language and its translations in <script id="words"> (see
// controller/web/pages.py); a text it has no translation for stays English. A page's
// WebSocket asks for the same language (`"/ws?lang=" + Layli.language`). The picker
// (<select id="language">) keeps a player's choice in a cookie and reloads the page in it.
"use strict";

window.Layli = window.Layli || {};

(() => {
  const found = document.getElementById("words");
  const page = found ? JSON.parse(found.textContent) : {language: "en", words: {}};

  // %(name)s and %(name)d replaced by values[name]
  function fill(text, values) {
    if (!values) return text;
    return text.replace(/%\(([a-z_]+)\)[sd]/g, (whole, name) =>
      name in values ? String(values[name]) : whole);
  }

  function _(text, values) {
    const said = page.words[text];
    return fill(typeof said === "string" ? said : text, values);
  }

  // the first form for one, the last for any other count: each of our languages' rule below
  // a million (tests/test_languages.py checks it against the catalogues' own rules)
  function ngettext(one, other, n, values) {
    const forms = page.words[one];
    const text = Array.isArray(forms) ? forms[n === 1 ? 0 : forms.length - 1]
                                      : (n === 1 ? one : other);
    return fill(text, Object.assign({n: n}, values || {}));
  }

  Object.assign(window.Layli, {_, ngettext, fill, language: page.language});

  document.addEventListener("DOMContentLoaded", () => {
    const picker = document.getElementById("language");
    if (!picker) return;
    picker.addEventListener("change", () => {
      document.cookie = "layli-language=" + picker.value + "; path=/; max-age=31536000; SameSite=Lax";
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.replace(url.toString());
    });
  });
})();
