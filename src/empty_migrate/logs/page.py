"""The frame every audit page shares: one self-contained HTML document.

Inline CSS and script, no network, so a page is one file to attach or open
anywhere. The look (type, tables, route colors) is defined here once; each
page adds only the rules of its own parts.
"""

from collections.abc import Iterable, Mapping
from html import escape

from empty_migrate.logs.routes import ROUTES


def page(title: str, body: str, *, css: str = "", script: str = "") -> str:
    """A whole HTML document: `body` (already escaped) under the shared look.

    Args:
        title: The page title, as plain text.
        body: The page's HTML.
        css: The page's own rules, after the shared ones.
        script: Optional inline script; a page must read well without it.
    """
    scripted = f"<script>{script}</script>\n" if script else ""
    return _PAGE.format(
        title=escape(title), css=CSS + css, body=body, scripted=scripted
    )


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{css}</style></head>
<body>
{body}
{scripted}</body></html>
"""

CSS = """
body { font: 13px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #222; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin-top: 24px; }
.summary { font-weight: 600; margin: 4px 0 10px; }
.legend, .filters { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 6px;
  align-items: center; }
.chip { padding: 2px 8px; border-radius: 10px; border: 1px solid #0002; }
table { border-collapse: separate; border-spacing: 2px; }
thead th { position: sticky; top: 0; background: #fff; font-size: 12px;
  text-align: center; padding: 4px; z-index: 1; }
tbody th { text-align: left; font-weight: 600; padding-right: 8px;
  white-space: nowrap; }
td { padding: 3px 6px; white-space: nowrap; }
.route-refusal { background: #d9c8ff; }
.route-wrong { background: #ffd8a8; }
.route-unscored { background: #dcdcdc; color: #444; }
.route-raised { background: #ffb3b3; }
.route-judge { background: #9fd0ff; }
.route-scored { background: #c6ecc6; }
.route-not_measured { background: #f2f2f2; color: #777; border: 1px dashed #aaa; }
"""
"""The shared rules: type, headings, chips, tables and one color per route."""


def route_chips(names: Iterable[str], titles: Mapping[str, str] | None = None) -> str:
    """One colored chip per route of `ROUTES`, saying what it means to a reader.

    `titles` gives a chip a tooltip, for a route its name does not explain.
    """
    titles = titles or {}
    return "".join(
        f'<span class="chip route-{name}"{_title(titles.get(name))}>'
        f"{escape(ROUTES[name])}</span>"
        for name in names
    )


def _title(text: str | None) -> str:
    return f' title="{escape(text)}"' if text else ""
