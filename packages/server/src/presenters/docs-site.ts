/**
 * The documentation site: the repository's docs/*.md rendered to HTML pages (marked, GitHub-flavoured,
 * headings with GitHub-style ids so existing `#anchor` links work; code blocks highlighted on the server
 * by highlight.js, so the pages need no script), with the site navigation, in the web app's look (its
 * stylesheet, from the app build's manifest). Pages are rendered once per file version (mtime) and kept.
 */
import { Marked, type Tokens } from 'marked';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import http from 'highlight.js/lib/languages/http';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sqlLang from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

for (const [name, lang] of Object.entries({ bash, http, javascript, json, python, sql: sqlLang, typescript, xml, yaml })) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'console', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['html', 'gexf', 'graphml', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });

export interface DocPage {
  /** Path under /docs/, without .md (e.g. `api/credentials`). */
  slug: string;
  title: string;
  summary: string;
}

/** Site sections, in order; a page goes to the first section whose test matches, else "More". */
const SECTIONS: { title: string; pages: string[] }[] = [
  { title: 'Guides', pages: ['web-app', 'embedding', 'jobs', 'operations', 'security'] },
  { title: 'Reference', pages: ['metrics', 'errors', 'embedding-api', 'embed-sdk', 'api/credentials', 'api/import-export'] },
  { title: 'Specification', pages: ['spec/README', 'spec/api', 'spec/decisions', 'spec/metrics-extra', 'spec/contract'] },
  { title: 'Project', pages: ['architecture', 'benchmarks'] },
];

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text.toLowerCase().trim().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function plain(md: string): string {
  return md.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_]/g, '').trim();
}

/** Title (first `# ` heading) and summary (first paragraph after it) of a Markdown text. */
export function describe(md: string, slug: string): { title: string; summary: string } {
  const title = /^#\s+(.+)$/m.exec(md)?.[1]?.trim() ?? slug;
  const afterTitle = md.replace(/^[\s\S]*?^#\s+.+$/m, '');
  const para = afterTitle.split(/\n\s*\n/).map((p) => p.trim()).find((p) => p && !/^(#|```|\||-|\*|>|<!--)/.test(p)) ?? '';
  const summary = plain(para.replace(/\s+/g, ' '));
  return { title: plain(title), summary: summary.length > 180 ? summary.slice(0, 177).replace(/\s+\S*$/, '') + '…' : summary };
}

function markedFor(slug: string): Marked {
  const dir = posix.dirname(`/docs/${slug}`);
  const seen = new Map<string, number>();
  return new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        let id = slugify(text);
        const n = seen.get(id) ?? 0;
        seen.set(id, n + 1);
        if (n > 0) id = `${id}-${n}`;
        const inner = this.parser.parseInline(tokens);
        if (depth === 1) return `<h1 id="${id}">${inner}</h1>\n`;
        return `<h${depth} id="${id}">${inner}<a class="anchor" href="#${id}" aria-label="Link to this section">#</a></h${depth}>\n`;
      },
      code({ text, lang }: Tokens.Code) {
        const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
        const known = language && hljs.getLanguage(language);
        const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
        return `<pre tabindex="0"><code class="hljs${known ? ` language-${escapeHtml(language)}` : ''}">${body}</code></pre>\n`;
      },
      link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link) {
        let target = href;
        // relative links to other pages (`embedding-api.md#x`) become site links (`/docs/embedding-api#x`)
        const m = /^(?![a-z][a-z0-9+.-]*:|\/|#)([^#?]*?)\.md(#.*)?$/i.exec(href);
        if (m) target = posix.join(dir, m[1]) + (m[2] ?? '');
        const external = /^https?:\/\//i.test(target);
        const t = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(target)}"${t}${external ? ' rel="noopener"' : ''}>${this.parser.parseInline(tokens)}</a>`;
      },
    },
  });
}

export function renderMarkdown(md: string, slug: string): string {
  return markedFor(slug).parse(md, { async: false }) as string;
}

export class DocsSite {
  private readonly cache = new Map<string, { mtimeMs: number; html: string }>();
  private pagesCache: { at: number; pages: DocPage[] } | null = null;
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  /** Every page under docs/ (re-read at most every 5 s). */
  pages(): DocPage[] {
    if (this.pagesCache && Date.now() - this.pagesCache.at < 5000) return this.pagesCache.pages;
    const out: DocPage[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.md')) {
          const slug = relative(this.root, p).split(sep).join('/').replace(/\.md$/, '');
          out.push({ slug, ...describe(readFileSync(p, 'utf8'), slug) });
        }
      }
    };
    walk(this.root);
    out.sort((a, b) => a.slug.localeCompare(b.slug));
    this.pagesCache = { at: Date.now(), pages: out };
    return out;
  }

  sections(): { title: string; pages: DocPage[] }[] {
    const pages = this.pages();
    const used = new Set<string>();
    const out = SECTIONS.map((s) => ({
      title: s.title,
      pages: s.pages.map((slug) => pages.find((p) => p.slug === slug)).filter((p): p is DocPage => !!p && !used.has(p.slug) && (used.add(p.slug), true)),
    }));
    const rest = pages.filter((p) => !used.has(p.slug));
    if (rest.length) out.push({ title: 'More', pages: rest });
    return out.filter((s) => s.pages.length > 0);
  }

  /** The rendered body of one page, or null when there is no such file. `file` is already checked. */
  body(file: string, slug: string): { html: string; title: string } | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return { html: hit.html, title: this.pages().find((p) => p.slug === slug)?.title ?? slug };
    const md = readFileSync(file, 'utf8');
    const html = renderMarkdown(md, slug);
    this.cache.set(file, { mtimeMs, html });
    return { html, title: describe(md, slug).title };
  }

  /** A whole HTML page: header like the app's, the navigation, the article. */
  page(opts: { title: string; current: string | null; article: string; css: string | null }): string {
    const nav = this.sections()
      .map((s) => `<h2>${escapeHtml(s.title)}</h2><ul>${s.pages.map((p) => `<li><a href="/docs/${escapeHtml(p.slug)}"${p.slug === opts.current ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`).join('')}</ul>`)
      .join('');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} · Netloom documentation</title>
${opts.css ? `<link rel="stylesheet" href="${escapeHtml(opts.css)}">` : ''}
</head>
<body>
<div class="app">
<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
<a href="/" class="brand" aria-label="Netloom home"><svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect width="32" height="32" rx="7" fill="currentColor"/><path d="M9 22 16 9l7 13z" fill="none" stroke="#fff" stroke-width="2"/><g fill="#fff"><circle cx="9" cy="22" r="3.5"/><circle cx="16" cy="9" r="3.5"/><circle cx="23" cy="22" r="3.5"/></g></svg><span>Netloom</span></a>
<nav class="nav docs-topnav" aria-label="Main"><ul class="nav-links"><li><a href="/networks">Networks</a></li><li><a href="/discover">Discover</a></li><li><a href="/docs/" class="active">Docs</a></li><li><a href="/api/v2/docs">API reference</a></li></ul></nav>
</header>
<main id="main" class="main" tabindex="-1">
<div class="docs">
<nav class="docs-nav" aria-label="Documentation"><a href="/docs/"${opts.current === null ? ' aria-current="page"' : ''}>Overview</a><a href="/api/v2/docs">API reference (OpenAPI)</a>${nav}</nav>
<article class="doc">
${opts.article}
</article>
</div>
</main>
</div>
</body>
</html>
`;
  }

  /** The /docs/ overview: every page with its summary, by section. */
  indexArticle(): string {
    return `<h1>Netloom documentation</h1>
<p>Netloom stores networks, computes ~35 metrics with NetworkX semantics and embeds an interactive viewer in your application. Start with the <a href="/api/v2/docs">API reference</a> (generated from the OpenAPI description at <a href="/api/v2/openapi.json"><code>/api/v2/openapi.json</code></a>) or one of the guides below.</p>
${this.sections()
  .map((s) => `<h2 id="${slugify(s.title)}">${escapeHtml(s.title)}</h2><ul class="docs-index">${s.pages.map((p) => `<li><a href="/docs/${escapeHtml(p.slug)}"><strong>${escapeHtml(p.title)}</strong><span class="muted">${escapeHtml(p.summary)}</span></a></li>`).join('')}</ul>`)
  .join('\n')}`;
  }
}
