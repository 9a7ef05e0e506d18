/**
 * Streaming XML for GEXF and GraphML: saxes (a conformant, non-validating SAX parser) over a file
 * stream, so a file is never held as a DOM. Hostile input is bounded: saxes expands only the five
 * predefined entities and character references (no DTD processing, so no entity-expansion bombs or
 * external entities), a `<!DOCTYPE` is refused outright, and the file size is bounded by the upload
 * limit. A malformed document is one problem naming its line and column.
 */
import { createReadStream } from 'node:fs';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { unreadable } from './problems.ts';

export interface XmlHandlers {
  open(tag: SaxesTagPlain, line: number): void;
  close(name: string, line: number): void;
  text(text: string): void;
}

/** Local name of a (possibly prefixed) tag: `viz:position` → `position`. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

export async function readXml(path: string, fileLabel: string, handlers: XmlHandlers): Promise<void> {
  const parser = new SaxesParser({ position: true });
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= unreadable(`${fileLabel} line ${parser.line}, column ${parser.column}`, `not well-formed XML: ${err.message.replace(/^[^:]*:\d+:\d+: /, '')}`);
  });
  parser.on('doctype', () => {
    failure ??= unreadable(`${fileLabel} line ${parser.line}`, 'a <!DOCTYPE> is not allowed (DTDs and entity declarations are refused)');
  });
  parser.on('opentag', (tag) => handlers.open(tag as SaxesTagPlain, parser.line));
  parser.on('closetag', (tag) => handlers.close(tag.name, parser.line));
  parser.on('text', (t) => handlers.text(t));
  parser.on('cdata', (t) => handlers.text(t));
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (failure) throw failure;
    }
    parser.close();
    if (failure) throw failure;
  } finally {
    stream.destroy();
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Text for an XML attribute value or element content. Tabs and line breaks are written as character
 * references so attribute-value normalization cannot turn them into spaces; the other C0 control
 * characters cannot be represented in XML 1.0 and are dropped (docs/api/import-export.md).
 */
export function escapeXml(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[&<>"\u0000-\u001f]/g, (c) => XML_ESCAPES[c] ?? '');
}
