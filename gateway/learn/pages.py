"""The Aprenda pages, made from one template and one data file per ruleset (pure: no I/O but reading them).

A ruleset's page is ``ruleset.html`` (inside ``frame.html``) filled from
``gateway/static/aprenda/data/<ruleset>.json``: for each language (``pt-BR``, ``en``) its description,
rules, questions, tips, glossary, history and quiz, as HTML fragments written by us (trusted, put in as
they are). What the rules catalog already knows is not restated there: the page's name is the
catalog's label, and a fragment may say ``{seats.min}``, ``{seats.max}``, ``{points.<card>}``,
``{goal.<seats>}`` (the default goal at that many seats) or ``{rulesets}`` (how many rulesets the site
has, in words), filled from ``GET /api/rulesets``' description. A placeholder the catalog cannot fill
is an error when the pages are made, never a page saying ``{…}``.

The index lists, in the catalog's order, every ruleset with a data file; a ruleset without one is
simply not listed (its address leads to the index: ``gateway/learn/__init__.py``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from string import Template
from typing import Any

HERE = Path(__file__).parent
LANGS = ("pt-BR", "en")
SECTIONS = ("rules", "faq", "tips", "glossary", "history", "quiz")  # what every page has, in both languages

_TEMPLATES = {name: Template((HERE / f"{name}.html").read_text(encoding="utf-8").rstrip("\n"))
              for name in ("frame", "ruleset", "index")}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:\.([A-Za-z0-9+]+))?\}")

_NUMBERS = {
    "pt-BR": ["zero", "uma", "duas", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez"],
    "en": ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"],
}

# The words of the pages' frame, the same for every ruleset.
WORDS: dict[str, dict[str, str]] = {
    "pt-BR": {
        "skip": "Pular para o conteúdo", "language": "Idioma", "other_title": "Read this page in English",
        "other_name": "English", "crumbs": "Caminho", "home": "Início", "learn": "Aprenda",
        "title": "{label} — Aprenda Mau-Mau", "play": "Jogar esta regra", "tutorial": "Passo a passo animado",
        "tutorial_note": "O mesmo passo a passo do botão “?” dentro do jogo.", "toc": "Nesta página",
        "regras": "As regras", "perguntas": "Perguntas frequentes", "dicas": "Dicas para quem está começando",
        "glossario": "Glossário", "historia": "Um pouco de história", "quiz": "Teste o que você aprendeu",
        "quiz_hint": "Toque numa pergunta para ver a resposta.", "answer": "Resposta:",
        "others": "As outras regras", "back": "Voltar ao jogo",
        "tagline": "Mau-Mau Online — jogue com os amigos por convite.",
        "index_title": "Aprenda a jogar Mau-Mau", "choose": "Escolha a regra",
        "index_lead": "{count} regras de Mau-Mau, uma página para cada: as regras completas, as dúvidas mais "
                      "comuns, dicas para quem está começando, as palavras do jogo, um pouco de história e um "
                      "teste rápido.",
    },
    "en": {
        "skip": "Skip to content", "language": "Language", "other_title": "Ler esta página em português",
        "other_name": "Português", "crumbs": "Breadcrumb", "home": "Home", "learn": "Learn",
        "title": "{label} — Learn Mau-Mau", "play": "Play this ruleset", "tutorial": "Animated step by step",
        "tutorial_note": "The same step-by-step guide as the “?” button in the game.", "toc": "On this page",
        "regras": "The rules", "perguntas": "Frequently asked questions", "dicas": "Tips for beginners",
        "glossario": "Glossary", "historia": "A little history", "quiz": "Test yourself",
        "quiz_hint": "Tap a question to see its answer.", "answer": "Answer:",
        "others": "The other rulesets", "back": "Back to the game",
        "tagline": "Mau-Mau Online — play with your friends by invitation.",
        "index_title": "Learn to play Mau-Mau", "choose": "Choose a ruleset",
        "index_lead": "{count} Mau-Mau rulesets, one page each: the full rules, the common questions, tips for "
                      "beginners, the game's words, a little history and a quick quiz.",
    },
}
TOC = ("regras", "perguntas", "dicas", "glossario", "historia", "quiz")  # the sections' anchors, in order


def href(page: str, lang: str) -> str:
    """An Aprenda page's address (``index`` or a ruleset's), as the lobby links it (lobby.js ``learnHref``)."""
    return f"/static/aprenda/{'en/' if lang == 'en' else ''}{page}.html"


def number(n: int, lang: str) -> str:
    """How many, in words (the site's rulesets: "quatro regras", "four rulesets")."""
    return _NUMBERS[lang][n] if 0 <= n < len(_NUMBERS[lang]) else str(n)


def fill(text: str, rs: dict[str, Any], lang: str, rulesets: int) -> str:
    """``text`` with its placeholders filled from the ruleset's catalog description ``rs``.

    >>> rs = {"name": "x", "seats": {"min": 2, "max": 5}, "points": {"JH": 20}, "goal": {"2": 200}}
    >>> fill("de {seats.min} a {seats.max}, valete {points.JH}, meta {goal.2}; {rulesets} regras", rs, "pt-BR", 4)
    'de 2 a 5, valete 20, meta 200; quatro regras'
    >>> fill("{points.ZZ}", rs, "en", 4)
    Traceback (most recent call last):
    ...
    ValueError: x: {points.ZZ} is not in the catalog
    """

    def value(m: re.Match[str]) -> str:
        kind, key = m.group(1), m.group(2)
        try:
            if kind == "rulesets" and key is None:
                return number(rulesets, lang)
            found = {"seats": rs["seats"], "points": rs["points"], "goal": rs.get("goal") or {}}[kind][key]
        except KeyError:
            raise ValueError(f"{rs['name']}: {m.group(0)} is not in the catalog") from None
        return str(found)

    return _PLACEHOLDER.sub(value, text)


def _lines(items: Iterable[str], indent: int) -> str:
    return "\n".join(" " * indent + item for item in items)


def _frame(lang: str, page: str, title: str, description: str, main: str) -> str:
    w = WORDS[lang]
    other = "en" if lang == "pt-BR" else "pt-BR"
    return _TEMPLATES["frame"].substitute(
        lang=lang, description=html.escape(description), title=html.escape(title), href_pt=href(page, "pt-BR"),
        href_en=href(page, "en"), skip=w["skip"], language=w["language"], other_href=href(page, other),
        other_lang=other, other_title=w["other_title"], other_name=w["other_name"], main=main,
        back=w["back"], index_href=href("index", lang), learn=w["learn"], tagline=w["tagline"])


def _actions(name: str, lang: str, tutorial: bool) -> str:
    """"Jogar esta regra" and, when the ruleset has one, its tutorial ("Passo a passo animado")."""
    w = WORDS[lang]
    play = (f'<a class="btn btn-primary" href="/?regra={name}&amp;lang={lang}" data-testid="play-ruleset">'
            f'{w["play"]}</a>')
    if not tutorial:
        return f'    <div class="actions">\n      <p class="cta">{play}</p>\n    </div>'
    tut = (f'<a class="btn" href="/?regra={name}&amp;ajuda=1&amp;lang={lang}" data-testid="tutorial-link">'
           f'{w["tutorial"]}</a>')
    return (f'    <div class="actions">\n      <p class="cta">{play} {tut}</p>\n'
            f'      <p class="muted small">{w["tutorial_note"]}</p>\n    </div>')


def ruleset_page(rs: dict[str, Any], data: dict[str, Any], lang: str, others: list[dict[str, Any]],
                 rulesets: int) -> str:
    """One ruleset's page in ``lang``: ``rs`` its catalog description, ``data`` its data file, ``others`` the
    descriptions of the other rulesets with a page, ``rulesets`` how many the site has."""
    w, text = WORDS[lang], data[lang]

    def f(fragment: str) -> str:
        return fill(fragment, rs, lang, rulesets)

    name, label = rs["name"], rs["label"][lang]
    description = f(text["description"])
    main = _TEMPLATES["ruleset"].substitute(
        ruleset=name, crumbs=w["crumbs"], home=w["home"], index_href=href("index", lang), learn=w["learn"],
        label=html.escape(label), description=description, actions=_actions(name, lang, "tutorial" in data),
        toc=w["toc"], toc_items=_lines((f'<li><a href="#{a}">{w[a]}</a></li>' for a in TOC), 8),
        **{f"t_{a}": w[a] for a in TOC},
        rules=_lines((f"<h3>{f(r['title'])}</h3>\n      {f(r['html'])}" for r in text["rules"]), 6),
        faq=_lines((f"<dt>{f(q)}</dt>\n        <dd>{f(a)}</dd>" for q, a in text["faq"]), 8),
        tips=_lines((f"<li>{f(tip)}</li>" for tip in text["tips"]), 8),
        glossary=_lines((f"<dt>{f(term)}</dt><dd>{f(says)}</dd>" for term, says in text["glossary"]), 8),
        history=_lines((f"<p>{f(p)}</p>" for p in text["history"]), 6),
        quiz_hint=w["quiz_hint"],
        quiz=_lines((f'<li><details data-testid="quiz-{i}"><summary>{f(q)}</summary><p class="answer">'
                     f'<strong>{w["answer"]}</strong> {f(a)}</p></details></li>'
                     for i, (q, a) in enumerate(text["quiz"], 1)), 8),
        others=w["others"],
        other_items=_lines((f'<li><a href="{href(o["name"], lang)}">{html.escape(o["label"][lang])}</a></li>'
                            for o in others), 8))
    return _frame(lang, name, w["title"].format(label=label), html.unescape(description), main)


def index_page(listed: list[tuple[dict[str, Any], dict[str, Any]]], lang: str, rulesets: int) -> str:
    """The index in ``lang``: a card per ruleset of ``listed`` (its catalog description and its data file)."""
    w = WORDS[lang]
    count = number(len(listed), lang)
    lead = w["index_lead"].format(count=count[:1].upper() + count[1:])
    cards = _lines((f'<li><a class="ruleset-card" href="{href(rs["name"], lang)}" data-testid="learn-{rs["name"]}">'
                    f'<span class="ruleset-name">{html.escape(rs["label"][lang])}</span>'
                    f'<span class="ruleset-desc">{fill(data[lang]["description"], rs, lang, rulesets)}</span></a></li>'
                    for rs, data in listed), 6)
    main = _TEMPLATES["index"].substitute(crumbs=w["crumbs"], home=w["home"], learn=w["learn"],
                                          h1=w["index_title"], lead=html.escape(lead), choose=w["choose"], cards=cards)
    return _frame(lang, "index", w["index_title"], lead, main)


def tutorial(rs: dict[str, Any], data: dict[str, Any], rulesets: int) -> dict[str, Any]:
    """The ruleset's tutorial as the client gets it: its steps' words with the catalog's data filled in."""
    own = data["tutorial"]

    def words(step: dict[str, Any], key: str, lang: str) -> list[str]:
        return [fill(w, rs, lang, rulesets) for w in step[key]]

    return {**own, "steps": [{**s, "pt": words(s, "pt", "pt-BR"), "en": words(s, "en", "en")} for s in own["steps"]]}


def problems(data: dict[str, Any]) -> list[str]:
    """What a data file lacks: both languages, each with a description and every section (none empty); a
    tutorial, when it has one, with steps of a title and a text in each language and a scene.

    >>> problems({"pt-BR": {"description": "x", **{s: ["y"] for s in SECTIONS}}, "tutorial": {"steps": [{}]}})
    ['en: missing', 'tutorial step 1: pt, en or scene missing']
    """
    found = []
    for lang in LANGS:
        if not isinstance(data.get(lang), dict):
            found.append(f"{lang}: missing")
            continue
        found += [f"{lang}: no {key}" for key in ("description", *SECTIONS) if not data[lang].get(key)]
    if "tutorial" in data:
        steps = data["tutorial"].get("steps") if isinstance(data["tutorial"], dict) else None
        if not steps:
            found.append("tutorial: no steps")
        for i, step in enumerate(steps or [], 1):
            if not (all(len(step.get(k) or []) == 2 for k in ("pt", "en")) and isinstance(step.get("scene"), dict)):
                found.append(f"tutorial step {i}: pt, en or scene missing")
    return found
