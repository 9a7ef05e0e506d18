/**
 * The survey intro is Markdown (docs/spec/decisions.md §10.2). This renders the part of it an intro
 * needs — paragraphs, line breaks, `-`/`*` and numbered lists, headings, **bold**, *italic* and
 * [links](https://…) — as React elements, never as HTML, so an intro cannot run script or load anything.
 * Links open in a new tab without a referrer (the respondent's link must not leak).
 */
import type { ReactNode } from 'react';

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}-${i++}`;
    if (m[1] !== undefined) out.push(<strong key={k}>{m[1]}</strong>);
    else if (m[2] !== undefined || m[3] !== undefined) out.push(<em key={k}>{m[2] ?? m[3]}</em>);
    else
      out.push(
        <a key={k} href={m[5]} target="_blank" rel="noopener noreferrer">
          {m[4]}
        </a>,
      );
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text }: { text: string }) {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n{2,}/).map((b) => b.trim()).filter(Boolean);
  return (
    <>
      {blocks.map((b, bi) => {
        const lines = b.split('\n');
        if (lines.every((l) => /^\s*[-*]\s+/.test(l))) return <ul key={bi}>{lines.map((l, li) => <li key={li}>{inline(l.replace(/^\s*[-*]\s+/, ''), `${bi}-${li}`)}</li>)}</ul>;
        if (lines.every((l) => /^\s*\d+[.)]\s+/.test(l))) return <ol key={bi}>{lines.map((l, li) => <li key={li}>{inline(l.replace(/^\s*\d+[.)]\s+/, ''), `${bi}-${li}`)}</li>)}</ol>;
        const h = /^(#{1,3})\s+(.*)$/.exec(b);
        if (h && lines.length === 1) return <h2 key={bi} className="r-md-heading">{inline(h[2] ?? '', `${bi}`)}</h2>;
        return (
          <p key={bi}>
            {lines.flatMap((l, li) => (li === 0 ? inline(l, `${bi}-${li}`) : [<br key={`br${li}`} />, ...inline(l, `${bi}-${li}`)]))}
          </p>
        );
      })}
    </>
  );
}
